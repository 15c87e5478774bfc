package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/secret"
	"github.com/stardust-indexer/stardust-indexer/source/node"
)

// nodeFlags configure -source node.
type nodeFlags struct {
	url, jwtFile, keysFile string
	events                 string
	eventsTrust            bool
	concurrency            int
	timeout                time.Duration
	maxConeBlocks          int
	maxConeBytes           int64
	outputCache            int
}

func (n *nodeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.url, "node-url", "", "node: the nodes' REST APIs, comma-separated, all of one network "+
		"(http://localhost:14265; default $NODE_URLS)")
	fs.StringVar(&n.jwtFile, "node-jwt-file", "", "node: a file holding the JWT for the node's protected routes (or $NODE_JWT, or $NODE_JWT_FILE)")
	fs.StringVar(&n.keysFile, "milestone-keys", "", "node: a Hornet config (or its protocol section) with "+
		"milestonePublicKeyCount and publicKeyRanges (default: built-in keys of shimmer and iota-mainnet)")
	fs.StringVar(&n.events, "node-events", node.EventsAuto, "node: the event API (TIP-28 MQTT) that announces milestones and "+
		"not-yet-referenced blocks: auto (each node's ws://.../api/mqtt/v1), off (poll only), or ws(s):// and mqtt(s):// URLs, comma-separated")
	fs.BoolVar(&n.eventsTrust, "node-events-trust", false, "node: let blocks from brokers named by URL in -node-events become "+
		"pending rows (without it they only wake the follower)")
	fs.IntVar(&n.concurrency, "node-concurrency", node.DefaultConcurrency, "node: ceiling of the requests in flight to each node "+
		"(shared by the milestones fetched at once; below it the limit adapts to the node's answers)")
	fs.DurationVar(&n.timeout, "node-timeout", 30*time.Second, "node: timeout of one request")
	fs.IntVar(&n.maxConeBlocks, "max-cone-blocks", node.DefaultMaxConeBlocks, "node: refuse a milestone whose cone holds more blocks")
	fs.Int64Var(&n.maxConeBytes, "max-cone-bytes", node.DefaultMaxConeBytes, "node: refuse a milestone whose cone's blocks hold more bytes")
	fs.IntVar(&n.outputCache, "node-output-cache", node.DefaultOutputCache, "node: unspent outputs kept of the milestones read "+
		"(about 350 bytes each); a spend of one older asks the keyspace once and the node twice")
}

// open is the node source the flags configure; created reads the creations the
// keyspace holds (see node.Config.Created).
func (n *nodeFlags) open(created node.CreatedOutputs) (*node.Source, error) {
	cfg, err := n.config(created)
	if err != nil {
		return nil, err
	}
	return node.New(cfg)
}

// config is the node source's configuration the flags give.
func (n *nodeFlags) config(created node.CreatedOutputs) (node.Config, error) {
	urls := n.urls()
	if len(urls) == 0 {
		return node.Config{}, errors.New("-source node needs -node-url (or $NODE_URLS)")
	}
	token, err := n.token()
	if err != nil {
		return node.Config{}, err
	}
	cfg := node.Config{URLs: urls, Token: token, Concurrency: n.concurrency, Timeout: n.timeout, Created: created,
		MaxConeBlocks: n.maxConeBlocks, MaxConeBytes: n.maxConeBytes, Events: n.events, EventsTrust: n.eventsTrust,
		OutputCache: n.outputCache}
	if n.keysFile != "" {
		data, err := os.ReadFile(n.keysFile)
		if err != nil {
			return node.Config{}, fmt.Errorf("-milestone-keys: %w", err)
		}
		keys, err := chain.ParseMilestoneKeys(data)
		if err != nil {
			return node.Config{}, fmt.Errorf("-milestone-keys %s: %w", n.keysFile, err)
		}
		cfg.Keys = &keys
	}
	return cfg, nil
}

// urls are the nodes of -node-url, else of $NODE_URLS: a comma-separated list.
func (n *nodeFlags) urls() []string {
	list := n.url
	if list == "" {
		list = os.Getenv("NODE_URLS")
	}
	var urls []string
	for _, u := range strings.Split(list, ",") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	return urls
}

// token reads the JWT from -node-jwt-file, or $NODE_JWT (or the file $NODE_JWT_FILE
// names), not both; it is never logged.
func (n *nodeFlags) token() (string, error) {
	env, err := secret.Lookup(os.Getenv, "NODE_JWT")
	switch {
	case err != nil:
		return "", err
	case n.jwtFile != "" && env != "":
		return "", errors.New("give the node's JWT by -node-jwt-file or $NODE_JWT, not both")
	case n.jwtFile == "":
		return env, nil
	}
	return secret.ReadFile(n.jwtFile, "-node-jwt-file")
}
