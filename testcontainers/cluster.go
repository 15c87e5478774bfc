package testcontainers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gocql/gocql"
)

// StartNode starts a node as n describes it (Dir is required; zero ports: free ones,
// empty cluster fields: a single node, see Node) and waits until it answers CQL.
// Unlike Ensure it never adopts a node already running in n.Dir: that is an error.
// The caller stops it (n.Stop, n.Kill or Stop(n.Dir)); unlike Ensure's node it does not
// outlive the calling process, which kills it (SIGKILL) when it exits in any way, e.g.
// on a test timeout.
func StartNode(ctx context.Context, n Node) (*Node, error) {
	if n.Dir == "" {
		return nil, errors.New("StartNode: no directory")
	}
	if err := os.MkdirAll(n.Dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockDir(n.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if old, err := loadNode(n.Dir); err == nil && old.alive() {
		return nil, fmt.Errorf("a node already runs in %s (pid %d)", n.Dir, old.PID)
	}
	if n.Host == "" {
		n.Host = "127.0.0.1"
	}
	if n.NativePort == 0 || n.StoragePort == 0 {
		if n.NativePort, n.StoragePort, err = freePorts([]string{n.Host}); err != nil {
			return nil, err
		}
	}
	lib, err := jarDir(ctx)
	if err != nil {
		return nil, err
	}
	node := n
	node.dieWithParent = true
	if err := boot(ctx, &node, lib); err != nil {
		_ = node.Stop()
		return nil, err
	}
	return &node, nil
}

// Alive reports whether the node's JVM runs.
func (n *Node) Alive() bool { return n.alive() }

// Stop ends the node gracefully (SIGTERM, SIGKILL after 30 s) and waits for it to exit.
// Its data and its node.json stay, so Restart (or Ensure) brings it back on the same
// ports; the package-level Stop also forgets the ports.
func (n *Node) Stop() error {
	if !n.alive() {
		return nil
	}
	_ = syscall.Kill(-n.PID, syscall.SIGTERM)
	for i := 0; i < 300 && n.alive(); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if n.alive() {
		_ = syscall.Kill(-n.PID, syscall.SIGKILL)
		return n.waitExit(10 * time.Second)
	}
	return nil
}

// KillWait is Kill followed by a wait until the JVM is gone.
func (n *Node) KillWait() error {
	if err := n.Kill(); err != nil && n.alive() {
		return err
	}
	return n.waitExit(10 * time.Second)
}

func (n *Node) waitExit(d time.Duration) error {
	deadline := time.Now().Add(d)
	for n.alive() {
		if time.Now().After(deadline) {
			return fmt.Errorf("cassandra pid %d still alive after %s", n.PID, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Restart starts a stopped or killed node again on the same directory, address, ports
// and cluster settings, and waits until it answers CQL. Its log is appended to.
func (n *Node) Restart(ctx context.Context) error {
	if n.alive() {
		return fmt.Errorf("node %s (pid %d) still runs", n.Addr(), n.PID)
	}
	// A killed JVM's listening sockets close with it; give the kernel a moment anyway.
	for i := 0; i < 50 && !(portFree(n.Host, n.NativePort) && portFree(n.Host, n.StoragePort)); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if !portFree(n.Host, n.NativePort) || !portFree(n.Host, n.StoragePort) {
		return fmt.Errorf("restart %s: ports %d/%d are taken", n.Host, n.NativePort, n.StoragePort)
	}
	lib, err := jarDir(ctx)
	if err != nil {
		return err
	}
	return boot(ctx, n, lib)
}

// Cluster is a set of local nodes forming one Cassandra cluster: node i listens on
// 127.0.0.(i+1), all on the same native and storage ports (Linux routes all of 127/8
// to the loopback interface).
type Cluster struct {
	Name  string
	Nodes []*Node
}

// ClusterHosts are the loopback addresses of a cluster of size nodes.
func ClusterHosts(size int) []string {
	hosts := make([]string, size)
	for i := range hosts {
		hosts[i] = "127.0.0." + strconv.Itoa(i+1)
	}
	return hosts
}

// ClusterSpec describes a local cluster for StartCluster.
type ClusterSpec struct {
	Dir  string // node i keeps its data in Dir/node<i>
	Size int    // number of nodes (default 3)
	Heap string // JVM heap of each node (default CASSANDRA_HEAP, else 1G)
	// Durable makes the system keyspaces crash-safe (see Node.Durable): needed when a
	// node is killed and then restarted; slower DDL.
	Durable bool
}

// StartCluster starts spec.Size nodes with evenly spread single tokens and no bootstrap
// streaming (the cluster is new and empty). The first node is the seed; nodes start
// one at a time, each once the previous answers CQL, and StartCluster returns when
// every node lists all the others as peers. On error the nodes already started are
// stopped.
func StartCluster(ctx context.Context, spec ClusterSpec) (*Cluster, error) {
	size := spec.Size
	if size == 0 {
		size = 3
	}
	if size < 1 || size > 254 {
		return nil, fmt.Errorf("cluster size %d", size)
	}
	hosts := ClusterHosts(size)
	native, storage, err := freePorts(hosts)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Name: "stardust-test-" + strconv.Itoa(native)}
	tokens := spreadTokens(size)
	for i, host := range hosts {
		n, err := StartNode(ctx, Node{Dir: filepath.Join(spec.Dir, "node"+strconv.Itoa(i+1)), Host: host,
			NativePort: native, StoragePort: storage, ClusterName: c.Name, Seeds: hosts[0] + ":" + strconv.Itoa(storage),
			InitialToken: tokens[i], NoBootstrap: true, Heap: spec.Heap, Durable: spec.Durable})
		if err != nil {
			_ = c.Stop()
			return nil, fmt.Errorf("starting node %d of %d (%s): %w", i+1, size, host, err)
		}
		c.Nodes = append(c.Nodes, n)
	}
	if err := c.WaitPeers(ctx, size); err != nil {
		_ = c.Stop()
		return nil, err
	}
	return c, nil
}

// Hosts are the CQL endpoints of every node, running or not.
func (c *Cluster) Hosts() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Addr()
	}
	return out
}

// Stop stops every node gracefully (in parallel) and returns the first error.
func (c *Cluster) Stop() error {
	errs := make(chan error, len(c.Nodes))
	for _, n := range c.Nodes {
		go func() { errs <- n.Stop() }()
	}
	var first error
	for range c.Nodes {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// WaitPeers waits until every running node lists all size-1 others in system.peers_v2
// and the driver sees size hosts up, i.e. gossip has joined the cluster.
func (c *Cluster) WaitPeers(ctx context.Context, size int) error {
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	for _, n := range c.Nodes {
		if !n.alive() {
			continue
		}
		for {
			got, err := countPeers(ctx, n.Addr())
			if err == nil && got >= size-1 {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("node %s sees %d of %d peers (last error: %w)\n%s",
					n.Host, got, size-1, orNone(err), LogTail(n.Dir, 30))
			case <-time.After(500 * time.Millisecond):
			}
		}
	}
	return nil
}

func countPeers(ctx context.Context, addr string) (int, error) {
	cl := gocql.NewCluster(addr)
	cl.Timeout, cl.ConnectTimeout = 2*time.Second, 2*time.Second
	cl.DisableInitialHostLookup = true
	cl.Logger = nopLogger{}
	s, err := cl.CreateSession()
	if err != nil {
		return 0, err
	}
	defer s.Close()
	it := s.Query("SELECT peer FROM system.peers_v2").WithContext(ctx).Iter()
	n := it.NumRows()
	return n, it.Close()
}

// spreadTokens are size Murmur3 tokens spread evenly over the ring.
func spreadTokens(size int) []string {
	ring := new(big.Int).Lsh(big.NewInt(1), 64)
	step := new(big.Int).Div(ring, big.NewInt(int64(size)))
	out := make([]string, size)
	for i := range out {
		t := new(big.Int).Mul(step, big.NewInt(int64(i)))
		t.Sub(t, new(big.Int).Lsh(big.NewInt(1), 63))
		out[i] = t.String()
	}
	return out
}

// freePorts finds a native and a storage port free on every one of hosts.
func freePorts(hosts []string) (native, storage int, err error) {
	for try := 0; try < 20; try++ {
		if native, err = freePort(hosts[0]); err != nil {
			return 0, 0, bindHint(hosts[0], err)
		}
		if storage, err = freePort(hosts[0]); err != nil {
			return 0, 0, bindHint(hosts[0], err)
		}
		ok := native != storage
		for _, h := range hosts {
			ok = ok && portFree(h, native) && portFree(h, storage)
		}
		if ok {
			return native, storage, nil
		}
	}
	for _, h := range hosts {
		if _, err := freePort(h); err != nil {
			return 0, 0, bindHint(h, err)
		}
	}
	return 0, 0, fmt.Errorf("no port pair free on all of %s", strings.Join(hosts, ", "))
}

func bindHint(host string, err error) error {
	return fmt.Errorf("cannot listen on %s (a loopback alias is needed, e.g. `ip addr add %s/8 dev lo`): %w",
		host, host, err)
}

// errNone stands for no error in a message that wraps the last one.
var errNone = errors.New("none")

func orNone(err error) error {
	if err == nil {
		return errNone
	}
	return err
}
