package territory

import (
	"fmt"
	"strings"
)

// Method is an inference method of the Boltzmann models (Stern §5.3). Its String is the name used on the
// command line and in saved preferences; the zero Method is none (mc takes no method).
type Method int

const (
	MethodExact Method = iota + 1 // Exact, §5.3.1
	MethodLBP                     // LBP, §5.3.2
	MethodGibbs                   // Gibbs, §5.3.3
	MethodSW                      // SW, §5.3.4
)

var methodNames = [...]string{MethodExact: "exact", MethodLBP: "lbp", MethodGibbs: "gibbs", MethodSW: "sw"}

// Methods lists the inference methods of the Boltzmann models.
var Methods = []Method{MethodExact, MethodLBP, MethodGibbs, MethodSW}

func (m Method) String() string { return name("Method", methodNames[:], int(m)) }

// ParseMethod reads "exact", "lbp", "gibbs" or "sw".
func ParseMethod(s string) (Method, error) {
	i, err := parse("method", methodNames[:], s)
	return Method(i), err
}

// Kind is a territory model: a Boltzmann model (§5.2), Monte Carlo ownership (mc) or their pool
// (boltzmann5+mc). Its String is the name used on the command line, in model files and in saved
// preferences.
type Kind int

const (
	KindBoltzmann5  Kind = iota + 1 // Boltzmann5Params, §5.2.2
	KindBoltzmann12                 // Boltzmann12Params, §5.2.3
	KindLiberties                   // BoltzmannLibertiesParams, §5.2.4
	// KindMC is Monte Carlo ownership (MC); it takes no inference method.
	KindMC
	// KindBoltzmann5MC is Boltzmann5 with the rollout ownership of MC as extra evidence in every point's
	// field (see Estimator.MCWeight).
	KindBoltzmann5MC
)

var kindNames = [...]string{KindBoltzmann5: "boltzmann5", KindBoltzmann12: "boltzmann12", KindLiberties: "boltzmann-lib",
	KindMC: "mc", KindBoltzmann5MC: "boltzmann5+mc"}

// Kinds lists the Boltzmann model kinds, those with trained parameters.
var Kinds = []Kind{KindBoltzmann5, KindBoltzmann12, KindLiberties}

// EstimatorKinds lists every kind NewEstimator accepts.
var EstimatorKinds = []Kind{KindBoltzmann5, KindBoltzmann12, KindLiberties, KindMC, KindBoltzmann5MC}

func (k Kind) String() string { return name("Kind", kindNames[:], int(k)) }

// ParseKind reads a model name: "boltzmann5", "boltzmann12", "boltzmann-lib", "mc" or "boltzmann5+mc".
func ParseKind(s string) (Kind, error) {
	i, err := parse("model", kindNames[:], s)
	return Kind(i), err
}

// Names are the names of a list of methods or kinds, for menus and usage lines.
func Names[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

func name(typ string, names []string, i int) string {
	if i > 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

func parse(what string, names []string, s string) (int, error) {
	for i, n := range names {
		if i > 0 && n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("territory: unknown %s %q (%s)", what, s, strings.Join(names[1:], ", "))
}

// ParseEstimator reads a model name and, unless the model is mc (which takes none), a method name, as
// the command line and saved preferences give them to NewEstimator.
func ParseEstimator(model, method string) (Kind, Method, error) {
	k, err := ParseKind(model)
	if err != nil || k == KindMC {
		return k, 0, err
	}
	m, err := ParseMethod(method)
	return k, m, err
}
