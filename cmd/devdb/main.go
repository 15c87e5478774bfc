// Command devdb starts and stops the local Cassandra node used by `make run` and `make test`.
//
//	devdb [-dir DIR] up      start (or reuse) the node; last line: CQL_HOSTS=127.0.0.1:PORT
//	devdb [-dir DIR] down    stop it
//	devdb [-dir DIR] status  print running or stopped
//	devdb [-dir DIR] logs    print the tail of its log
//	devdb [-dir DIR] nodetool ARGS...  run Cassandra's nodetool against it (flush, tablestats, ...)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

func main() {
	dir := flag.String("dir", testcontainers.DefaultDir(), "node directory (data, logs, config)")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if err := run(ctx, *dir, flag.Arg(0), flag.Args()[min(1, flag.NArg()):]); err != nil {
		fmt.Fprintln(os.Stderr, "devdb:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, cmd string, args []string) error {
	switch cmd {
	case "up":
		start := time.Now()
		n, err := testcontainers.Ensure(ctx, dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "cassandra %s ready in %s (dir %s, log %s)\n",
			testcontainers.CassandraVersion, time.Since(start).Round(time.Millisecond), dir, testcontainers.LogFile(dir))
		fmt.Printf("CQL_HOSTS=%s\n", n.Addr())
	case "down":
		return testcontainers.Stop(dir)
	case "status":
		if testcontainers.Running(dir) {
			fmt.Println("running")
		} else {
			fmt.Println("stopped")
		}
	case "logs":
		fmt.Print(testcontainers.LogTail(dir, 100))
	case "nodetool":
		n, err := testcontainers.Open(dir)
		if err != nil {
			return err
		}
		out, err := n.NodeTool(ctx, args...)
		fmt.Print(out)
		return err
	default:
		return fmt.Errorf("usage: devdb [-dir DIR] up|down|status|logs|nodetool ARGS...")
	}
	return nil
}
