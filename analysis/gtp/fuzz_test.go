package gtp_test

import (
	"strings"
	"testing"

	"aji/analysis/gtp"
)

// FuzzServe feeds arbitrary input to a server: it must never panic, and every response must be framed
// as the specification says, one per command line (or none after quit).
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		"protocol_version\n",
		"1 boardsize 9\n2 play b E5\n3 genmove w\n4 undo\n5 showboard\n",
		"boardsize 3\nplay b A1\nplay w B2\nfinal_score\nfinal_status_list dead\n",
		"\x00\x01#\t\r\n9 name # x\n",
		"loadsgf testdata/game9.sgf 3\nlist_stones black\n",
		"time_settings 10 5 5\ntime_left b 3 1\nfixed_handicap 4\nset_free_handicap A1 B2\n",
		"aji-heatmap uniform\naji-territory\ngogui-analyze_commands\nknown_command x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 2000 || strings.Contains(in, "loadsgf") && strings.ContainsAny(in, "/.") && !strings.Contains(in, "testdata/game9.sgf") {
			return // keep runs short; read no files but the test's own
		}
		srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{Size: 9, ScorePlayouts: 8, Predictors: []string{"uniform"}})
		var out strings.Builder
		if err := srv.Serve(t.Context(), strings.NewReader(in), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		o := out.String()
		if o == "" {
			return
		}
		if !strings.HasSuffix(o, "\n\n") {
			t.Fatalf("output does not end with an empty line: %q", o)
		}
		for _, r := range strings.Split(strings.TrimSuffix(o, "\n\n"), "\n\n") {
			if r == "" || r[0] != '=' && r[0] != '?' || strings.ContainsAny(r, "\r\x00") {
				t.Fatalf("badly framed response %q in %q", r, o)
			}
		}
	})
}
