package findpattern

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// Kind says what a Query matches.
type Kind uint8

const (
	// Coulom is a shape of Coulom's templates (sizes pattern.MinSize..MaxSize), as mm, fbt and cfg
	// key their shapes.
	Coulom Kind = iota + 1
	// Stern is a pattern of Stern's templates T1..T14 (the bayes predictors), local features included.
	Stern
	// Feature is one level of one of Coulom's tactical features, by its Explain name.
	Feature
)

// Query is what a search looks for: a shape (Coulom or Stern, with its size and key) or a feature level.
type Query struct {
	Kind Kind
	// Size is the Coulom template size (3..12) or Stern's template number (1..14).
	Size int
	// Key is the shape's invariant key (pattern.Keys.Of, pattern.SternKeys.Of).
	Key uint64
	// Feature and Level are the feature's, for a Feature query.
	Feature feature.Feature
	Level   uint8
	// Model, when set, is a model's shape dictionary (predict.Shaper): a shape then matches only where
	// it is the largest pattern of the dictionary matching at the point, which is where that model's
	// shape factor fires; without it, wherever the shape itself matches. A Coulom shape takes a Coulom
	// dictionary, a Stern pattern a Stern one.
	Model *pattern.Dictionary
}

// ErrQuery marks a query that cannot be searched for: bad shape text, an unknown feature name, a point
// off the board.
var ErrQuery = errors.New("bad query")

// String is the query's text: a shape as ParseShape reads it ("8:00000a3f5c2e9b71", "T8:…"), a
// feature as its name ("atari: ladder atari").
func (q Query) String() string {
	switch q.Kind {
	case Coulom:
		return fmt.Sprintf("%d:%016x", q.Size, q.Key)
	case Stern:
		return fmt.Sprintf("T%d:%016x", q.Size, q.Key)
	case Feature:
		return feature.Name(q.Feature, q.Level)
	}
	return "(no query)"
}

// Describe says what the query is in words, for titles: "shape of size 8 (8:…)", "pattern T8 (T8:…)",
// "feature atari: ladder atari"; a shape with a model is "… as the model's largest known shape".
func (q Query) Describe() string {
	model := ""
	if q.Model != nil {
		model = " as the model's largest known shape"
	}
	switch q.Kind {
	case Coulom:
		return fmt.Sprintf("shape of size %d (%s)%s", q.Size, q, model)
	case Stern:
		return fmt.Sprintf("pattern T%d (%s)%s", q.Size, q, model)
	case Feature:
		return "feature " + q.String()
	}
	return q.String()
}

// ParseShape reads a shape's text form: the template and the key in hexadecimal, separated by a
// colon. A Coulom size is a number 3..12 ("8:00000a3f5c2e9b71", the shape of size 8 that mm, fbt and
// cfg key so); Stern's template is T and its number 1..14 ("T8:…", a bayes pattern). The key takes up
// to 16 hex digits, with or without 0x; case and surrounding spaces do not matter.
func ParseShape(s string) (Query, error) {
	t := strings.TrimSpace(s)
	size, key, ok := strings.Cut(t, ":")
	if !ok {
		return Query{}, fmt.Errorf("%w: shape %q: want SIZE:KEY, e.g. 8:00000a3f5c2e9b71 or T8:…", ErrQuery, s)
	}
	q, err := template(strings.TrimSpace(size))
	if err != nil {
		return Query{}, fmt.Errorf("%w: shape %q: %v", ErrQuery, s, err)
	}
	key = strings.TrimSpace(key)
	if k, ok := strings.CutPrefix(key, "0x"); ok {
		key = k
	} else if k, ok := strings.CutPrefix(key, "0X"); ok {
		key = k
	}
	if key == "" || len(key) > 16 {
		return Query{}, fmt.Errorf("%w: shape %q: the key is 1 to 16 hex digits", ErrQuery, s)
	}
	if q.Key, err = strconv.ParseUint(key, 16, 64); err != nil {
		return Query{}, fmt.Errorf("%w: shape %q: the key is 1 to 16 hex digits", ErrQuery, s)
	}
	return q, nil
}

// template reads a template: "8" (Coulom) or "T8" (Stern), with its key left 0.
func template(s string) (Query, error) {
	q := Query{Kind: Coulom}
	lo, hi := pattern.MinSize, pattern.MaxSize
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), "T"); ok {
		q.Kind, s, lo, hi = Stern, rest, 1, pattern.NumStern
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi || strings.HasPrefix(s, "+") {
		if q.Kind == Stern {
			return Query{}, fmt.Errorf("the Stern templates are T1 to T%d", pattern.NumStern)
		}
		return Query{}, fmt.Errorf("shape sizes are %d to %d (T1 to T%d for Stern's templates)", pattern.MinSize, pattern.MaxSize, pattern.NumStern)
	}
	q.Size = n
	return q, nil
}

// ShapeAt returns the shape query of the template tmpl ("8", or "T8" for Stern's) at the point p of
// pos, for the player to move: what the inspector shows at a point, and `aji find-pattern --sgf`.
func ShapeAt(pos *game.Position, p board.Point, tmpl string) (Query, error) {
	q, err := template(strings.TrimSpace(tmpl))
	if err != nil {
		return Query{}, fmt.Errorf("%w: %v", ErrQuery, err)
	}
	b := &pos.Board
	if !b.OnBoard(p) {
		return Query{}, fmt.Errorf("%w: the point is not on the %dx%d board", ErrQuery, b.Size(), b.Size())
	}
	if b.At(p) != board.Empty {
		return Query{}, fmt.Errorf("%w: %s is occupied: a shape is read around an empty point", ErrQuery, p.GTP(b.Size()))
	}
	if q.Kind == Stern {
		q.Key = pattern.SternKeysAt(b, p, pos.ToPlay).Of(q.Size)
	} else {
		q.Key = pattern.KeysAt(b, p, pos.ToPlay).Of(q.Size)
	}
	return q, nil
}

// FeatureNames lists the feature levels a query can name, in the features' order: every level of
// Coulom's tactical features but passing and the Monte Carlo owner (a point's owner is a random
// estimate, not a property of the position to search for).
func FeatureNames() []string {
	var names []string
	for i := range feature.NumIndices {
		if f, _ := feature.FromIndex(i); searchable(f) {
			names = append(names, feature.IndexName(i))
		}
	}
	return names
}

func searchable(f feature.Feature) bool { return f != feature.Pass && f != feature.MCOwner }

// FeatureQuery returns the query of the feature level named name, as predictors' explanations name it
// ("atari: ladder atari", "distance to previous move: 3"); case and spacing do not matter.
func FeatureQuery(name string) (Query, error) {
	want := strings.Join(strings.Fields(strings.ToLower(name)), " ")
	for i := range feature.NumIndices {
		f, level := feature.FromIndex(i)
		if strings.ToLower(feature.IndexName(i)) != want {
			continue
		}
		if !searchable(f) {
			return Query{}, fmt.Errorf("%w: %q is not searchable: passes have no point, and the Monte Carlo owner is a random estimate", ErrQuery, name)
		}
		return Query{Kind: Feature, Feature: f, Level: level}, nil
	}
	// Name the features that contain what was typed, else all of them.
	names := FeatureNames()
	var near []string
	for _, n := range names {
		if want != "" && strings.Contains(strings.ToLower(n), want) {
			near = append(near, n)
		}
	}
	if len(near) > 0 {
		return Query{}, fmt.Errorf("%w: unknown feature %q (did you mean: %s?)", ErrQuery, name, strings.Join(near, "; "))
	}
	return Query{}, fmt.Errorf("%w: unknown feature %q (known: %s)", ErrQuery, name, strings.Join(names, "; "))
}

// check says why q cannot be searched for, or nil.
func (q Query) check() error {
	switch {
	case q.Kind < Coulom || q.Kind > Feature:
		return fmt.Errorf("%w: empty query", ErrQuery)
	case q.Model == nil:
		return nil
	case q.Kind == Feature:
		return fmt.Errorf("%w: a model's shapes go with a shape, not a feature", ErrQuery)
	case q.Model.Stern() != (q.Kind == Stern):
		return fmt.Errorf("%w: %s with a model of the other kind of templates (Coulom's sizes 3..12, Stern's T1..T14)", ErrQuery, q)
	}
	return nil
}
