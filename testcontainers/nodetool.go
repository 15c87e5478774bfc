package testcontainers

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
)

// jmxProps open the node's JMX port to local clients only (no remote access, no
// password): what nodetool needs for flush, compact and the like.
func (n *Node) jmxProps() []string {
	if n.JMXPort == 0 {
		return nil
	}
	return []string{"-Dcassandra.jmx.local.port=" + strconv.Itoa(n.JMXPort)}
}

// Open returns the node running in dir (one that Ensure or devdb started).
func Open(dir string) (*Node, error) {
	n, err := loadNode(dir)
	if err != nil {
		return nil, err
	}
	if !n.alive() {
		return nil, fmt.Errorf("no node runs in %s", dir)
	}
	return n, nil
}

// runNodeTool runs Cassandra's nodetool with args against the node, over its local JMX
// port, and returns what it printed.
func (n *Node) runNodeTool(ctx context.Context, args ...string) (string, error) {
	if n.JMXPort == 0 {
		return "", errors.New("the node was started without a JMX port: restart it (devdb down, devdb up)")
	}
	lib, err := jarDir(ctx)
	if err != nil {
		return "", err
	}
	java, err := exec.LookPath(envOr("JAVA", "java"))
	if err != nil {
		return "", fmt.Errorf("java (JDK 17) not found on PATH: %w", err)
	}
	cmd := exec.CommandContext(ctx, java, append(append(moduleArgs(), "-Xmx128m", "-cp", filepath.Join(lib, "*"),
		"-Dlogback.configurationFile="+filepath.Join(n.Dir, "conf", "logback.xml"),
		"-Dcassandra.logdir="+filepath.Join(n.Dir, "logs", "nodetool"),
		"org.apache.cassandra.tools.NodeTool", "-h", n.Host, "-p", strconv.Itoa(n.JMXPort)), args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("nodetool %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// NodeTool runs nodetool as runNodeTool does, again for up to 30 s while nodetool says
// "Server is not initialized yet": its words for an MBean not found, which is also what a
// table created a moment ago is until the node has registered it.
func (n *Node) NodeTool(ctx context.Context, args ...string) (string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := n.runNodeTool(ctx, args...)
		if err == nil || !strings.Contains(out, "not initialized yet") || time.Now().After(deadline) {
			return out, err
		}
		if wait.Sleep(ctx, 500*time.Millisecond) != nil {
			return out, err
		}
	}
}

// Settle flushes the memtables of keyspace to SSTables and waits until the node has
// no compaction pending or running, so that reads measured next find the data in the
// same state whatever was written just before.
func (n *Node) Settle(ctx context.Context, keyspace string) error {
	if _, err := n.NodeTool(ctx, "flush", keyspace); err != nil {
		return err
	}
	for {
		out, err := n.NodeTool(ctx, "compactionstats")
		if err != nil {
			return err
		}
		if idle(out) {
			return nil
		}
		if err := wait.Sleep(ctx, 2*time.Second); err != nil {
			return err
		}
	}
}

// pendingTasks reads the count in nodetool compactionstats' "pending tasks" line.
var pendingTasks = regexp.MustCompile(`(?m)^pending tasks:?\s+(\d+)`)

// idle reports whether nodetool compactionstats shows no compaction pending, and no
// running one (those are listed under a "compaction type" header).
func idle(compactionstats string) bool {
	m := pendingTasks.FindStringSubmatch(compactionstats)
	return m != nil && m[1] == "0" && !strings.Contains(compactionstats, "compaction type")
}
