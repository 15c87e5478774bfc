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

// Node is a local single-node Cassandra managed by this package.
type Node struct {
	Dir         string `json:"dir"`
	Host        string `json:"host"`
	NativePort  int    `json:"native_port"`
	StoragePort int    `json:"storage_port"`
	PID         int    `json:"pid"`
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
	if n, err := loadNode(dir); err == nil && n.alive() && pingCQL(ctx, n.Addr()) == nil {
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
	n, err := loadNode(dir)
	return err == nil && n.alive()
}

// Kill ends the node at once (SIGKILL), as a crash would; its data stays for a restart.
func (n *Node) Kill() error { return syscall.Kill(-n.PID, syscall.SIGKILL) }

func (n *Node) alive() bool {
	if n.PID <= 0 {
		return false
	}
	if syscall.Kill(n.PID, 0) != nil {
		return false
	}
	// A zombie or a reused PID would pass kill(0); the cmdline check rules both out.
	cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", n.PID))
	return err == nil && len(cmd) > 0 && strings.Contains(string(cmd), "CassandraDaemon")
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
