package main

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/node"
)

// -node-output-cache reaches the node source's configuration; left out, the package's
// default stands.
func TestNodeOutputCacheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-node-url", "http://127.0.0.1:1"}, node.DefaultOutputCache},
		{[]string{"-node-url", "http://127.0.0.1:1", "-node-output-cache", "65536"}, 65536},
	} {
		var n nodeFlags
		if err := parseFlags("run", c.args, n.register); err != nil {
			t.Fatal(err)
		}
		cfg, err := n.config(nil)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.OutputCache != c.want {
			t.Fatalf("%v: OutputCache %d, want %d", c.args, cfg.OutputCache, c.want)
		}
	}
}
