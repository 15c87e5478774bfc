// Command mutationtable prints one package's row of the mutation table (scripts/mutate.sh):
// mutationtable -header, or mutationtable <dir> <import path> <gremlins.json> <cover.out>.
package main

import (
	"fmt"
	"os"

	"github.com/stardust-indexer/stardust-indexer/internal/mutation"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-header" {
		fmt.Println(mutation.Header())
		return
	}
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: mutationtable -header | mutationtable dir importpath gremlins.json cover.out")
		os.Exit(2)
	}
	row, err := mutation.ScoreFiles(os.Args[1], os.Args[2], os.Args[3], os.Args[4])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(row.Format())
}
