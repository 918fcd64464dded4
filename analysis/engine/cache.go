package engine

import (
	"container/list"

	"aji/analysis/game"
)

// CacheKey identifies a result: the analysis with its settings, and the position (game.Key holds all
// of it an analysis may read).
type CacheKey struct {
	Task string
	Pos  game.Key
}

// Cache is a least-recently-used map from keys to results, bounded by the sum of the results' sizes:
// the Engine's, and the whole-game review's. It is not safe for concurrent use; its owner guards it.
type Cache struct {
	maxBytes int
	bytes    int
	order    *list.List // front: most recently used
	items    map[CacheKey]*list.Element
}

type cacheEntry struct {
	key   CacheKey
	value any
	size  int
}

// NewCache makes a cache that holds results of at most maxBytes in all.
func NewCache(maxBytes int) *Cache {
	return &Cache{maxBytes: maxBytes, order: list.New(), items: map[CacheKey]*list.Element{}}
}

// Get returns the result stored under k, marking it recently used.
func (c *Cache) Get(k CacheKey) (any, bool) {
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).value, true
}

// Put stores a result of the given size in bytes, evicting the least recently used beyond the bound; a
// result larger than the whole bound is not kept.
func (c *Cache) Put(k CacheKey, v any, size int) {
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
