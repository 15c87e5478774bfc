package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// dbFlags are the connection flags every subcommand shares; each defaults to its CQL_*
// environment variable.
type dbFlags struct {
	hosts, keyspace, consistency, replication string
	chunkSize                                 uint
	nodeID                                    int
}

func (d *dbFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.hosts, "cql-hosts", "", "comma-separated host:port (default $CQL_HOSTS or 127.0.0.1:9042)")
	fs.StringVar(&d.keyspace, "keyspace", "", "keyspace (default $CQL_KEYSPACE or stardust)")
	fs.StringVar(&d.consistency, "consistency", "", "consistency level (default $CQL_CONSISTENCY or LOCAL_QUORUM)")
	fs.StringVar(&d.replication, "replication", "1", "replication: a factor (SimpleStrategy) or dc1:3,dc2:3 (NetworkTopologyStrategy)")
	fs.UintVar(&d.chunkSize, "chunk-size", store.DefaultChunkSize, "milestones per ms_range_id partition (fixed once indexed)")
	fs.IntVar(&d.nodeID, "node-id", 1, "this node's id (1-127), written to sync.synced_by")
}

func (d *dbFlags) config() (cql.Config, error) {
	cfg, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		return cfg, err
	}
	if d.hosts != "" {
		cfg.Hosts = strings.Split(d.hosts, ",")
	}
	if d.keyspace != "" {
		cfg.Keyspace = d.keyspace
	}
	if d.consistency != "" {
		c, err := cql.ParseConsistency(d.consistency)
		if err != nil {
			return cfg, err
		}
		cfg.Consistency = c
	}
	if d.nodeID < 1 || d.nodeID > 127 {
		return cfg, fmt.Errorf("-node-id %d: want 1-127", d.nodeID)
	}
	if d.chunkSize < 1 || d.chunkSize > 1<<31 {
		return cfg, fmt.Errorf("-chunk-size %d: want 1..2^31", d.chunkSize)
	}
	return cfg, migrations.ValidKeyspace(cfg.Keyspace)
}

func (d *dbFlags) replicationConfig() (migrations.Replication, error) {
	if n, err := strconv.Atoi(d.replication); err == nil {
		return migrations.Replication{Factor: n}, nil
	}
	dcs := map[string]int{}
	for _, part := range strings.Split(d.replication, ",") {
		name, factor, ok := strings.Cut(part, ":")
		n, err := strconv.Atoi(factor)
		if !ok || err != nil {
			return migrations.Replication{}, fmt.Errorf("-replication %q: want N or dc:N,dc:N", d.replication)
		}
		dcs[strings.TrimSpace(name)] = n
	}
	return migrations.Replication{DataCenters: dcs}, nil
}

// withStore runs f on a store of the configured keyspace (whatever chunk size it was
// indexed with) and closes it after.
func (d *dbFlags) withStore(ctx context.Context, f func(*store.Store, cql.Config) error) error {
	cfg, err := d.config()
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg, 0)
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st, cfg)
}
