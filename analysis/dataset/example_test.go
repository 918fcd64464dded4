package dataset_test

import (
	"context"
	"fmt"
	"log"

	"aji/analysis/dataset"
)

// Count the even 19x19 games of at least 50 moves in an archive, reporting
// the records that do not parse.
func ExampleWalk() {
	filter := dataset.Filter{Size: 19, MaxHandicap: 1, MinMoves: 50}
	st, err := dataset.Walk(context.Background(), "games-validation.tar.xz", filter, func(rec dataset.Record) error {
		if rec.Err != nil {
			log.Print(rec.Err) // counted in Stats.Errors; the walk goes on
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d games kept, %d unreadable files\n", st.Kept, st.Games, st.Errors)
}
