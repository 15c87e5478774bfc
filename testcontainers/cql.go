package testcontainers

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/gocql/gocql"
)

// Hosts returns the CQL endpoints to use: CQL_HOSTS when set, otherwise the local
// node in DefaultDir, started if needed.
func Hosts(ctx context.Context) ([]string, error) {
	if env := os.Getenv("CQL_HOSTS"); env != "" {
		return SplitHosts(env), nil
	}
	n, err := Ensure(ctx, DefaultDir())
	if err != nil {
		return nil, err
	}
	return []string{n.Addr()}, nil
}

// SplitHosts parses a comma-separated host:port list, ignoring blanks.
func SplitHosts(s string) []string {
	var out []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// ping runs one query on the node; a secure node is reached as its superuser over TLS.
func (n *Node) ping(ctx context.Context) error {
	c := gocql.NewCluster(n.Addr())
	n.Secure.apply(c)
	c.Timeout = 2 * time.Second
	c.ConnectTimeout = 2 * time.Second
	c.DisableInitialHostLookup = true
	c.Logger = nopLogger{}
	s, err := c.CreateSession()
	if err != nil {
		return err
	}
	defer s.Close()
	var v string
	return s.Query("SELECT release_version FROM system.local").WithContext(ctx).Scan(&v)
}

type nopLogger struct{}

func (nopLogger) Print(...any)          {}
func (nopLogger) Printf(string, ...any) {}
func (nopLogger) Println(...any)        {}
