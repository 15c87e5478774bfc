package testcontainers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Node is a local Cassandra node managed by this package: a single node (Ensure) or one
// member of a cluster (StartCluster).
type Node struct {
	Dir         string `json:"dir"`
	Host        string `json:"host"`
	NativePort  int    `json:"native_port"`
	StoragePort int    `json:"storage_port"`
	PID         int    `json:"pid"`
	// JMXPort, when set, is the node's local-only JMX port (what NodeTool talks to).
	JMXPort int `json:"jmx_port,omitempty"`
	// The fields below default to a single node: cluster "stardust-dev", token 0, the
	// node itself as the only seed, the heap CASSANDRA_HEAP (or 1G).
	ClusterName  string `json:"cluster_name,omitempty"`
	Seeds        string `json:"seeds,omitempty"` // host:storage_port, comma-separated
	InitialToken string `json:"initial_token,omitempty"`
	NoBootstrap  bool   `json:"no_bootstrap,omitempty"` // auto_bootstrap: false
	Heap         string `json:"heap,omitempty"`
	// Durable leaves out -Dcassandra.unsafesystem: slower DDL, but schema changes
	// survive a SIGKILL (fault tests that kill and restart a node need it).
	Durable bool `json:"durable,omitempty"`
	// CommitlogSync is the commit log mode: "" (periodic, 10 s), "group" or "batch".
	// In periodic mode a node killed with SIGKILL loses the writes it acknowledged in
	// its last ~100 ms (only sections with a sync marker are replayed); group and batch
	// acknowledge a write only once it is synced.
	CommitlogSync string `json:"commitlog_sync,omitempty"`
	// CPUs, when set, gives the JVM that many processors: -XX:ActiveProcessorCount (its
	// thread pools and GC size themselves by it) and, where taskset exists, pinned to
	// CPUs 0..CPUs-1. With ConcurrentWrites (concurrent_writes, default 8) it makes a
	// reproducibly slower node (the ingest benchmark's slow node).
	CPUs             int `json:"cpus,omitempty"`
	ConcurrentWrites int `json:"concurrent_writes,omitempty"`
	// Secure, when set, makes the node require password authentication, role-based
	// authorization and TLS on its CQL port (see StartSecureNode).
	Secure *Security `json:"secure,omitempty"`

	// dieWithParent ties the JVM to this process (StartNode): it gets SIGKILL when the
	// process ends, even on a test timeout or a crash.
	dieWithParent bool
	// proc is the JVM when this process launched it (nil for a node found in node.json).
	proc *proc
}

// proc tracks a JVM this process started: done is closed once it exited and was reaped.
type proc struct {
	done  chan struct{}
	state string // how it ended, set before done is closed
}

// withDefaults fills the single-node defaults of the fields left empty.
func (n *Node) withDefaults() {
	if n.Host == "" {
		n.Host = "127.0.0.1"
	}
	if n.ClusterName == "" {
		n.ClusterName = "stardust-dev"
	}
	if n.Seeds == "" {
		n.Seeds = n.Host + ":" + strconv.Itoa(n.StoragePort)
	}
	if n.InitialToken == "" {
		n.InitialToken = "0"
	}
	if n.Heap == "" {
		n.Heap = envOr("CASSANDRA_HEAP", "1G")
	}
}

// Addr is the node's CQL endpoint as host:port.
func (n *Node) Addr() string { return n.Host + ":" + strconv.Itoa(n.NativePort) }

// DefaultDir is where the local node keeps its data unless STARDUST_DB_DIR says otherwise.
func DefaultDir() string {
	if d := os.Getenv("STARDUST_DB_DIR"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "stardust-indexer", "node")
}

// StartTimeout bounds how long a cold node may take to answer CQL.
var StartTimeout = 180 * time.Second

// Ensure returns a running node in dir, starting one if none answers there.
// Concurrent callers (parallel test packages) are serialised by a file lock.
func Ensure(ctx context.Context, dir string) (*Node, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if n, err := loadNode(dir); err == nil && n.alive() && n.ping(ctx) == nil {
		return n, nil
	}
	return start(ctx, dir)
}

// Stop ends the node in dir, if one runs, and waits for it to exit.
func Stop(dir string) error {
	n, err := loadNode(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !n.alive() {
		return os.Remove(stateFile(dir))
	}
	_ = syscall.Kill(-n.PID, syscall.SIGTERM)
	for i := 0; i < 300 && n.alive(); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if n.alive() {
		_ = syscall.Kill(-n.PID, syscall.SIGKILL)
	}
	return os.Remove(stateFile(dir))
}

// Running reports whether a node of this package is alive in dir.
func Running(dir string) bool {
	_, err := Open(dir)
	return err == nil
}

// Kill ends the node at once (SIGKILL), as a crash would; its data stays for a restart.
func (n *Node) Kill() error { return syscall.Kill(-n.PID, syscall.SIGKILL) }

func (n *Node) alive() bool {
	if n.proc != nil {
		// Exact for a JVM started here, and no race with its exec: right after fork
		// the kernel may show an empty /proc/PID/cmdline for a moment.
		select {
		case <-n.proc.done:
			return false
		default:
			return true
		}
	}
	if n.PID <= 0 {
		return false
	}
	if syscall.Kill(n.PID, 0) != nil {
		return false
	}
	// A zombie or a reused PID would pass kill(0); the cmdline check rules both out,
	// down to a PID reused by another node's JVM (this package starts many): the
	// command line must name this node's config.
	cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", n.PID))
	return err == nil && strings.Contains(string(cmd), "CassandraDaemon") &&
		strings.Contains(string(cmd), configArg(n.Dir))
}

func stateFile(dir string) string { return filepath.Join(dir, "node.json") }

func loadNode(dir string) (*Node, error) {
	b, err := os.ReadFile(stateFile(dir))
	if err != nil {
		return nil, err
	}
	var n Node
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("%s: %w", stateFile(dir), err)
	}
	return &n, nil
}

func (n *Node) save() error {
	b, _ := json.MarshalIndent(n, "", "  ")
	return os.WriteFile(stateFile(n.Dir), b, 0o644)
}

func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
