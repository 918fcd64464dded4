package territory

import "context"

// Inferer computes the marginals of a Field: Exact, LBP, Gibbs and SW implement it, each configured by
// its own fields (SampleOptions for the samplers), so a caller picks an implementation once and runs it
// on every position. It returns ctx.Err(), leaving m unspecified, when ctx ends a long run.
type Inferer interface {
	Infer(ctx context.Context, f *Field, m *Marginals) error
}

var (
	_ Inferer = (*Exact)(nil)
	_ Inferer = (*LBP)(nil)
	_ Inferer = (*Gibbs)(nil)
	_ Inferer = (*SW)(nil)
)

// Infer implements Inferer; log Z is dropped.
func (e *Exact) Infer(ctx context.Context, f *Field, m *Marginals) error {
	_, err := e.RunContext(ctx, f, m)
	return err
}

// Infer implements Inferer. LBP is fast (milliseconds) and does not check ctx while it runs.
func (l *LBP) Infer(ctx context.Context, f *Field, m *Marginals) error {
	l.Run(f, m)
	return ctx.Err()
}

// Infer implements Inferer with gs.Options.
func (gs *Gibbs) Infer(ctx context.Context, f *Field, m *Marginals) error {
	return gs.RunContext(ctx, f, m, gs.Options)
}

// Infer implements Inferer with sw.Options.
func (sw *SW) Infer(ctx context.Context, f *Field, m *Marginals) error {
	return sw.RunContext(ctx, f, m, sw.Options)
}
