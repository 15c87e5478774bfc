package api

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"

	"github.com/prometheus/client_golang/prometheus"
)

// guard protects the read routes of a public server: per-client rate and in-flight
// limits (Config.Limits) and, when configured, a read token (Config.ReadToken). The
// probes need no token, so that orchestrators and monitoring see the server as it is;
// they answer from memory (probes.go), are capped in flight together (probeGate), and
// have a per-client rate of their own (Limits.ProbeRate), far above any monitor's pace
// and apart from the read routes' buckets, so that neither a flood of probes nor a
// client's reads use up the other's.
type guard struct {
	limits      *limiter // nil: no limits
	probeLimits *limiter // the probes' own; nil: none
	trusted     []netip.Prefix
	readSum     [sha256.Size]byte
	hasRead     bool
	limited     *prometheus.CounterVec
	rowsRead    prometheus.Counter
	probes      probeGate
	conns       connTracker // each client's open connections (limit_conns.go)
}

// probes are the routes neither limited nor behind the read token.
var probes = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true, "/health": true}

const readChallenge = `Bearer realm="stardust-indexer"`

func newGuard(cfg Config, token Secret) *guard {
	g := &guard{trusted: cfg.Limits.TrustedProxies, probes: make(probeGate, maxProbesInFlight),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "api_limited_total",
			Help: "Requests (and connections) refused with 429 by reason: rate, client_in_flight, in_flight, " +
				"clients, connections."}, []string{"reason"})}
	g.rowsRead = prometheus.NewCounter(prometheus.CounterOpts{Name: "api_rows_read_total",
		Help: "Database rows the limited routes read (a request is charged a token per -rows-per-token of them)."})
	cfg.Registry.MustRegister(g.limited, g.rowsRead)
	if cfg.Limits.enabled() {
		g.limits = newLimiter(cfg.Limits, time.Now)
	}
	if l := cfg.Limits; l.ProbeRate > 0 {
		g.probeLimits = newLimiter(Limits{Rate: l.ProbeRate, Burst: int(math.Ceil(2 * l.ProbeRate)), RowsPerToken: -1,
			Tarpit: l.Tarpit, MaxClients: l.MaxClients, IdleAfter: l.IdleAfter}, time.Now)
	}
	g.conns.g = g
	if token != "" {
		g.readSum, g.hasRead = sha256.Sum256([]byte(token)), true
	}
	return g
}

// wrap admits a request of rt (nil: the unmatched handler) before next serves it: the
// limits first (an unauthenticated flood is limited too), then the read token. The
// probes have limits of their own (probeLimiter) and no read token.
func (g *guard) wrap(rt *rest.Route, next http.Handler) http.Handler {
	if rt != nil && probes[rt.Pattern] {
		gated := g.probes.wrap(next)
		return g.limit(g.probeLimits, rt, func(w http.ResponseWriter, r *http.Request, _ netip.Addr) {
			gated.ServeHTTP(w, r)
		})
	}
	return g.limit(g.limits, rt, func(w http.ResponseWriter, r *http.Request, id netip.Addr) {
		w, r, bill := g.billRows(w, r, id)
		defer bill.settle()
		if g.hasRead && (rt == nil || !rt.Admin && !rt.Public) && !g.readAllowed(r) {
			w.Header().Set("WWW-Authenticate", readChallenge)
			g.refuse(w, r, rt, &rest.APIError{Status: http.StatusUnauthorized, Title: "unauthorized",
				Detail: "this API needs the header Authorization: Bearer <read token>"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limit admits a request through lim (nil: no limits), after its wait in the queues,
// and serves it with next through a sendWriter (the slot freed when the answer starts,
// the minimum send rate), or refuses it with 429 (held by the tarpit when the refusal
// is for the client's own limits and came without a wait).
func (g *guard) limit(lim *limiter, rt *rest.Route, next func(http.ResponseWriter, *http.Request, netip.Addr)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := clientID(r, g.trusted)
		if lim == nil {
			next(w, r, id)
			return
		}
		release, refused := lim.admit(r.Context(), id)
		if refused != nil {
			g.turnAway(w, r, rt, refused)
			return
		}
		defer release()
		sw := newSendWriter(w, release, lim.cfg.MinSendRate)
		defer sw.extend() // what net/http sends after the handler (buffered bytes) gets a window too
		next(sw, r, id)
	})
}

// turnAway answers a refused request 429 (after its hold); a client that left while
// it waited gets nothing.
func (g *guard) turnAway(w http.ResponseWriter, r *http.Request, rt *rest.Route, refused *refusal) {
	if refused.reason == reasonGone {
		return
	}
	g.limited.WithLabelValues(refused.reason).Inc()
	hold(r, refused)
	if refused.close {
		w.Header().Set("Connection", "close")
	}
	g.refuse(w, r, rt, &rest.APIError{Status: http.StatusTooManyRequests, Title: "too many requests",
		Detail: limitDetail[refused.reason], RetryAfter: refused.retryAfter})
}

// hold waits out a held refusal (or the client's leaving).
func hold(r *http.Request, ref *refusal) {
	if ref.hold <= 0 {
		return
	}
	defer ref.unhold()
	t := time.NewTimer(ref.hold)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

var limitDetail = map[string]string{
	reasonRate: "this client asks more per second than the server allows (a request that reads many rows " +
		"counts as more than one); retry after Retry-After seconds",
	reasonClientInFlight: "this client has too many requests in flight; wait for their answers",
	reasonInFlight:       "the server has too many requests in flight; retry after Retry-After seconds",
	reasonClients:        "the server tracks as many clients as it may, all busy; retry after Retry-After seconds",
}

func (g *guard) refuse(w http.ResponseWriter, r *http.Request, rt *rest.Route, e *rest.APIError) {
	if rt == nil {
		rest.WriteError(w, r, e, nil)
		return
	}
	rest.WriteRouteError(w, r, rt, e, nil)
}

// readAllowed checks the read token as the admin token is checked (SHA-256, constant
// time); neither the token nor a refused request's path is logged.
func (g *guard) readAllowed(r *http.Request) bool {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	return strings.EqualFold(scheme, "Bearer") && tokenMatch(g.readSum, strings.TrimSpace(token))
}

// document adds the guard's answers to rt's documented errors.
func (g *guard) document(rt *rest.Route) {
	if probes[rt.Pattern] || (g.limits == nil && !g.hasRead) {
		return
	}
	errs := maps.Clone(rt.Errs) // route tables share their maps
	if errs == nil {
		errs = map[int]string{}
	}
	if g.limits != nil {
		errs[http.StatusTooManyRequests] = "over this client's request rate or in-flight cap, or the server's " +
			"(see Retry-After)"
	}
	if g.hasRead && !rt.Admin && !rt.Public {
		errs[http.StatusUnauthorized] = "no read token, or a wrong one (Authorization: Bearer <read token>)"
	}
	rt.Errs = errs
}

// CheckReadToken refuses a read token as CheckAdminToken refuses an admin token.
func CheckReadToken(token Secret) error { return checkToken("read token", token) }

// checkToken refuses a token shorter than MinAdminTokenLength or one that cannot be
// sent in an Authorization header (printable ASCII without spaces). The error never
// contains the token.
func checkToken(what string, token Secret) error {
	if len(token) < MinAdminTokenLength {
		return fmt.Errorf("%s: %d characters, want at least %d", what, len(token), MinAdminTokenLength)
	}
	for i := 0; i < len(token); i++ {
		if c := token[i]; c <= ' ' || c > '~' {
			return fmt.Errorf("%s: character %d is not printable ASCII (or is a space)", what, i+1)
		}
	}
	return nil
}
