package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/internal/secret"
)

// readTokenEnv is the variable that may hold the read token (instead of a file).
const readTokenEnv = "API_READ_TOKEN"

// protectFlags are the limits and the read token (docs/api-protection.md).
type protectFlags struct {
	limits        api.Limits
	trustedProxy  string
	readTokenFile string
}

func (p *protectFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&p.limits.Rate, "rate", api.DefaultRate, "requests per second each client may sustain (0: no limit)")
	fs.Float64Var(&p.limits.ProbeRate, "probe-rate", api.DefaultProbeRate, "probe requests per second each client "+
		"may sustain, bursts of twice that (/health, /healthz; 0: no limit)")
	fs.IntVar(&p.limits.RowsPerToken, "rows-per-token", api.DefaultRowsPerToken, "charge a request one token more "+
		"for each this many database rows it read (0: one token a request, whatever it reads)")
	fs.IntVar(&p.limits.Burst, "burst", api.DefaultBurst, "requests a client may send at once above -rate")
	fs.IntVar(&p.limits.ClientConcurrency, "client-concurrency", api.DefaultClientConcurrency,
		"requests in flight per client (0: no cap)")
	fs.IntVar(&p.limits.MaxInFlight, "max-in-flight", api.DefaultMaxInFlight, "requests in flight in all (0: no cap)")
	fs.IntVar(&p.limits.ClientQueue, "client-queue", api.DefaultClientQueue, "requests of one client that may wait "+
		"for their token or their in-flight slot before a 429 (0: refused at once)")
	fs.DurationVar(&p.limits.QueueWait, "queue-wait", api.DefaultQueueWait, "longest a request waits in its "+
		"client's queue")
	fs.IntVar(&p.limits.GlobalQueue, "global-queue", api.DefaultGlobalQueue, "requests that may wait for a slot of "+
		"-max-in-flight before a 429 (0: refused at once)")
	fs.DurationVar(&p.limits.GlobalQueueWait, "global-queue-wait", api.DefaultGlobalQueueWait, "longest a request "+
		"waits for a slot of -max-in-flight")
	fs.IntVar(&p.limits.ClientConnections, "client-connections", api.DefaultClientConnections, "connections one "+
		"client may hold open (IPv4 address, IPv6 /64; a /48 16 times that; 0: no cap)")
	fs.IntVar(&p.limits.MinSendRate, "min-send-rate", api.DefaultMinSendRate, "bytes a second a client must read "+
		"an answer at, else its connection is closed (0: only the write timeout)")
	fs.DurationVar(&p.limits.Tarpit, "tarpit", api.DefaultTarpit, "hold a refusal of a client over its own limits "+
		"this long before sending it (0: at once)")
	fs.StringVar(&p.trustedProxy, "trusted-proxy", "", "proxies (comma-separated CIDRs or addresses) whose "+
		"X-Forwarded-For names the client; none by default: the client is the remote address")
	fs.StringVar(&p.readTokenFile, "read-token-file", "", "file holding a read token that every route but the "+
		"probes and the dashboard's files then requires (or set "+readTokenEnv+"; neither: public reads)")
}

// check validates the parsed values.
func (p *protectFlags) check() error {
	var err error
	if p.limits.TrustedProxies, err = api.ParseTrustedProxies(p.trustedProxy); err != nil {
		return err
	}
	switch l := p.limits; {
	case l.Rate < 0:
		return fmt.Errorf("-rate %g: want 0 (off) or more", l.Rate)
	case l.Rate > 0 && l.Burst < 1:
		return fmt.Errorf("-burst %d: want at least 1 with -rate", l.Burst)
	case l.ClientConcurrency < 0:
		return fmt.Errorf("-client-concurrency %d: want 0 (off) or more", l.ClientConcurrency)
	case l.Tarpit < 0 || l.Tarpit > 10*time.Second:
		return fmt.Errorf("-tarpit %s: want 0 (off) to 10s", l.Tarpit)
	case l.MaxInFlight < 0:
		return fmt.Errorf("-max-in-flight %d: want 0 (off) or more", l.MaxInFlight)
	case l.ClientQueue < 0 || l.GlobalQueue < 0:
		return fmt.Errorf("-client-queue %d, -global-queue %d: want 0 (off) or more", l.ClientQueue, l.GlobalQueue)
	case l.QueueWait < 0 || l.QueueWait > time.Minute || l.GlobalQueueWait < 0 || l.GlobalQueueWait > time.Minute:
		return fmt.Errorf("-queue-wait %s, -global-queue-wait %s: want 0 to 1m", l.QueueWait, l.GlobalQueueWait)
	case l.ClientConnections < 0:
		return fmt.Errorf("-client-connections %d: want 0 (off) or more", l.ClientConnections)
	case l.MinSendRate < 0:
		return fmt.Errorf("-min-send-rate %d: want 0 (off) or more", l.MinSendRate)
	case l.ProbeRate < 0:
		return fmt.Errorf("-probe-rate %g: want 0 (off) or more", l.ProbeRate)
	case l.RowsPerToken < 0:
		return fmt.Errorf("-rows-per-token %d: want 0 (off) or more", l.RowsPerToken)
	}
	if p.limits.RowsPerToken == 0 {
		p.limits.RowsPerToken = -1 // api.Limits: negative is off, zero the default
	}
	return nil
}

// readToken reads the read token as adminToken reads the admin token.
func readToken(file string, getenv func(string) string) (api.Secret, string, error) {
	return tokenFrom("-read-token-file", file, readTokenEnv, getenv, api.CheckReadToken)
}

// tokenFrom reads a token from the file or, without one, the environment variable env
// ("" when neither is set) and says where it came from. Neither the token nor the
// file's content ever appears in an error.
func tokenFrom(flagName, file, env string, getenv func(string) string,
	check func(api.Secret) error) (api.Secret, string, error) {
	fromEnv, err := secret.Lookup(getenv, env)
	switch {
	case err != nil:
		return "", "", err
	case file != "" && fromEnv != "":
		return "", "", fmt.Errorf("both %s and %s are set: give the token once", flagName, env)
	case file == "" && fromEnv == "":
		return "", "", nil
	}
	source, token := "env "+env, api.Secret(strings.TrimSpace(fromEnv))
	if file != "" {
		text, err := secret.ReadFile(file, flagName)
		if err != nil {
			return "", "", err
		}
		source, token = "file "+file, api.Secret(text)
	}
	if err := check(token); err != nil {
		return "", "", fmt.Errorf("%s: %w", source, err)
	}
	return token, source, nil
}

// logProtection says at start which limits hold and whether reads need a token.
func logProtection(l api.Limits, readSource string) {
	reads := "public"
	if readSource != "" {
		reads = "read token from " + readSource
	}
	slog.Info("api protection", "rate", l.Rate, "burst", l.Burst, "client_concurrency", l.ClientConcurrency,
		"max_in_flight", l.MaxInFlight, "rows_per_token", max(l.RowsPerToken, 0), "probe_rate", l.ProbeRate, "client_queue", l.ClientQueue,
		"queue_wait", l.QueueWait, "global_queue", l.GlobalQueue, "global_queue_wait", l.GlobalQueueWait,
		"client_connections", l.ClientConnections, "min_send_rate", l.MinSendRate, "tarpit", l.Tarpit, "trusted_proxies", len(l.TrustedProxies), "reads", reads)
}
