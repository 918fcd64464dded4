package predict

import "testing"

func TestPartners(t *testing.T) {
	ex := Explanation{
		Factors: []Factor{{Name: "atari"}, {Name: "shape"}, {Name: "edge"}},
		Interactions: []Interaction{
			{A: 0, B: 1, Value: 1.3},
			{A: 1, B: 2, Value: -0.8},
			{A: 0, B: 2, Value: 0.2},
		},
	}
	up, down := ex.Partners()
	wantUp, wantDown := []int{0, 0, 2}, []int{-1, 1, 1}
	for i := range up {
		if up[i] != wantUp[i] || down[i] != wantDown[i] {
			t.Fatalf("partners up %v down %v, want %v and %v", up, down, wantUp, wantDown)
		}
	}
	if got := ex.InteractionText(1, 2); got != "× shape: -0.80" {
		t.Errorf("seen from edge: %q", got)
	}
	if got := ex.InteractionText(0, -1); got != "atari × shape: +1.30" {
		t.Errorf("the pair: %q", got)
	}
}
