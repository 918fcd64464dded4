package main

import (
	"fmt"

	"aji/analysis/reading"
)

// splitProblems is the part ("train" or "test"; "" for all) of a problem set that `aji reading
// --split` and `aji train reading --split` use: reading.Split's, about two thirds to train by a
// hash of each problem's id with the seed, so a problem stays on its side whatever else the file
// holds. Both commands call this one function, so a model is never tested on what it learned from.
func splitProblems(ps []reading.Problem, part string, seed uint64) ([]reading.Problem, error) {
	train, test := reading.Split(ps, seed)
	switch part {
	case "":
		return ps, nil
	case "train":
		return train, nil
	case "test":
		return test, nil
	}
	return nil, fmt.Errorf("%w: --split %q: train or test", errUsage, part)
}
