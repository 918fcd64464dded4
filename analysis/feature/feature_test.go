package feature

import (
	"strings"
	"testing"
)

func TestIndexIsABijection(t *testing.T) {
	if int(offset[NumFeatures]) != NumIndices {
		t.Fatalf("levels add up to %d indices, NumIndices is %d", offset[NumFeatures], NumIndices)
	}
	next := 0
	names := map[string]bool{}
	for f := range NumFeatures {
		for l := f.MinLevel(); l <= f.MaxLevel(); l++ {
			i := Index(f, l)
			if i != next {
				t.Fatalf("Index(%v, %d) = %d, want %d", f, l, i, next)
			}
			next++
			if gf, gl := FromIndex(i); gf != f || gl != l {
				t.Errorf("FromIndex(%d) = %v %d, want %v %d", i, gf, gl, f, l)
			}
			name := IndexName(i)
			if names[name] || !strings.HasPrefix(name, f.String()) || strings.Contains(name, "level") {
				t.Errorf("IndexName(%d) = %q: duplicate or not descriptive", i, name)
			}
			names[name] = true
		}
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		f     Feature
		level uint8
		want  string
	}{
		{Pass, PassAfterPass, "pass: previous move is a pass"},
		{Capture, CaptureNewAtari, "capture: string contiguous to new string in atari"},
		{Capture, CaptureLadder, "capture: string in a ladder"},
		{Extension, ExtensionNotLadder, "extension: new atari, not in a ladder"},
		{SelfAtari, SelfAtariLevel, "self-atari"},
		{Atari, AtariKo, "atari: atari when there is a ko"},
		{BorderDistance, 1, "distance to border: 1"},
		{PrevDistance, 2, "distance to previous move: 2"},
		{PrevPrevDistance, MaxDistance, "distance to the move before: 17 or more"},
		{MCOwner, 1, "Monte Carlo owner: 0-7 of 63"},
		{MCOwner, 8, "Monte Carlo owner: 56-63 of 63"},
		{Atari, 9, "atari: level 9"},
	}
	for _, tt := range tests {
		if got := Name(tt.f, tt.level); got != tt.want {
			t.Errorf("Name(%v, %d) = %q, want %q", tt.f, tt.level, got, tt.want)
		}
	}
}

func TestAppendIndices(t *testing.T) {
	var l Levels
	l[Capture] = CaptureRecapture
	l[PrevDistance] = 5
	got := l.AppendIndices(nil)
	if len(got) != 2 || got[0] != Index(Capture, CaptureRecapture) || got[1] != Index(PrevDistance, 5) {
		t.Errorf("AppendIndices = %v", got)
	}
}
