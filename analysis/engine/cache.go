package engine

import "container/list"

// cache is a least-recently-used map from keys to results, bounded by the sum of the results' sizes.
// It is not safe for concurrent use; Engine guards it.
type cache struct {
	maxBytes int
	bytes    int
	order    *list.List // front: most recently used
	items    map[cacheKey]*list.Element
}

type cacheEntry struct {
	key   cacheKey
	value any
	size  int
}

func newCache(maxBytes int) *cache {
	return &cache{maxBytes: maxBytes, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func (c *cache) get(k cacheKey) (any, bool) {
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).value, true
}

// put stores a value; a value larger than the whole budget is not kept.
func (c *cache) put(k cacheKey, v any, size int) {
	if size > c.maxBytes {
		return
	}
	if e, ok := c.items[k]; ok {
		c.bytes -= e.Value.(*cacheEntry).size
		c.order.Remove(e)
	}
	c.items[k] = c.order.PushFront(&cacheEntry{k, v, size})
	c.bytes += size
	for c.bytes > c.maxBytes {
		last := c.order.Back()
		ent := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.items, ent.key)
		c.bytes -= ent.size
	}
}
