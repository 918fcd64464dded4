// Package peertest lets a test binary double as Aji's own GTP server, so that tests of code that drives
// external engines (analysis/peer, the app's Engines tab) need no other program.
package peertest

import (
	"context"
	"os"
	"testing"

	"aji/analysis/gtp"
	"aji/analysis/predict"
)

// serverArg, as the last argument, makes the test binary serve GTP on its standard input and output.
const serverArg = "aji-peertest-gtp-server"

// ServeIfChild serves GTP and exits when the test binary was started by Command; call it first in
// TestMain. The server is `aji gtp --predictor uniform`'s: analysis/gtp.Server with the uniform
// predictor.
func ServeIfChild() {
	if len(os.Args) < 2 || os.Args[len(os.Args)-1] != serverArg {
		return
	}
	pr, err := predict.New("uniform", predict.Options{})
	if err != nil {
		os.Exit(2)
	}
	srv := gtp.NewServer(&gtp.PredictorPlayer{Predictor: pr, Seed: 1}, gtp.ServerOptions{
		Name: "Aji", Komi: 7.5, Predictors: []string{"uniform"}, ScorePlayouts: 20,
	})
	if err := srv.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Command is the command line that starts the test binary as the server.
func Command(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + exe + "' " + serverArg
}
