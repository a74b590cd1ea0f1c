package notation_test

import (
	"fmt"
	"os"

	"icepost/notation"
)

// Check reads records, replays them, and reports problems with their
// positions; Canonicalize and Format write the canonical form.
func Example() {
	src := `[Game "icesickle"]
[Player1 "Ada"]
[Player2 "Bob"]

l@C3 m@b2 {a quiet start} S@a1 *

[Game "IceSickle"]

1. L@c3 L@c3 *
`
	games, errs := notation.Check("club.txt", []byte(src))
	for _, err := range errs {
		fmt.Println(err)
	}
	for _, g := range games {
		g.Canonicalize()
		notation.Format(os.Stdout, g.Record)
	}
	// Output:
	// club.txt:9:9: ply 2: L@c3: c3 is occupied (seat 2 to move)
	// [Game "IceSickle"]
	// [Player1 "Ada"]
	// [Player2 "Bob"]
	//
	// 1. L@c3 M@b2 {a quiet start} 2. S@a1 *
}
