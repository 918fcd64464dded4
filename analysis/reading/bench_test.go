package reading

import (
	"context"
	"testing"
)

// BenchmarkSolve solves the whole suite once per iteration with each method, on one warm Solver,
// and reports the nodes developed per second and per problem.
func BenchmarkSolve(b *testing.B) {
	ps := loadSuite(b)
	for _, m := range []Method{PNS, PP} {
		b.Run(m.String(), func(b *testing.B) {
			s := NewSolver(Options{Method: m})
			ctx := context.Background()
			b.ReportAllocs()
			nodes := 0
			for b.Loop() {
				for i := range ps {
					p := &ps[i]
					res, err := s.Solve(ctx, &p.Board, p.Target, p.Goal)
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N*len(ps)), "nodes/problem")
		})
	}
}
