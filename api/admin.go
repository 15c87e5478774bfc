package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// The admin routes are the API's only writes: POST, and only with the admin token as a
// bearer token. Without a configured token they are not registered at all (404, and
// absent from /openapi.json). The server keeps only the token's SHA-256, compares in
// constant time, and never logs a token, a wrong one included, nor the raw path or query
// of a refused request (a token pasted into a URL by mistake stays out of the log).

// Secret is a string that does not print: fmt (every verb), slog and JSON show
// "[redacted]". Use string(s) where the value itself is needed.
type Secret string

const redacted = "[redacted]"

func (Secret) String() string               { return redacted }
func (Secret) GoString() string             { return redacted }
func (Secret) Format(f fmt.State, _ rune)   { _, _ = io.WriteString(f, redacted) }
func (Secret) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// tokenMatch compares SHA-256 sums in constant time, so that neither the content nor
// the length of the token leaks through timing.
func tokenMatch(want [sha256.Size]byte, given string) bool {
	got := sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// MinAdminTokenLength is the shortest admin token CheckAdminToken accepts.
const MinAdminTokenLength = 16

// CheckAdminToken refuses a token too short to resist guessing or one that cannot be
// sent in an Authorization header (it must be printable ASCII without spaces). The error
// never contains the token.
func CheckAdminToken(token Secret) error { return checkToken("admin token", token) }

// Bounds of the admin routes.
const (
	// maxResyncRange bounds POST /admin/resync: one delete per synced milestone.
	maxResyncRange = 1000
	// defaultAdminTimeout bounds an admin request (Config.AdminTimeout): a daily job
	// counts every address of its date.
	defaultAdminTimeout = time.Minute
)

const bearerChallenge = `Bearer realm="stardust-indexer admin"`

// adminRoutes are registered only when an admin token is configured.
func (s *Server) adminRoutes() []rest.Route {
	return []rest.Route{
		rest.WithParams(rest.Route{Pattern: "/admin/analytics/daily/{date}", Tag: "admin", Admin: true,
			Summary: "Run the daily analytics job for a date now, under the date's lease, even if it was computed",
			Schema:  "DayResult",
			Errs: map[int]string{
				http.StatusConflict: "another node holds the date's lease (it is running the job): retry later",
				http.StatusUnprocessableEntity: "the date is not complete (a milestone of it, or the one after its end, " +
					"is not synced yet): nothing was written"}}, s.adminDaily),
		rest.WithParams(rest.Route{Pattern: "/admin/resync", Tag: "admin", Admin: true,
			Summary: "Delete the sync rows of the milestones [from, to] (at most 1000): the indexers rewrite them " +
				"as gaps the next time they read sync for gaps (at start, and every -gap-check while following)",
			Schema: "Resync"}, s.adminResync),
	}
}

// authorize checks the bearer token of an admin request; the refusal names what was
// wrong, never what was sent.
func (s *Server) authorize(r *http.Request) (*rest.APIError, string) {
	refuse := func(reason, detail string) (*rest.APIError, string) {
		return &rest.APIError{Status: http.StatusUnauthorized, Title: "unauthorized", Detail: detail}, reason
	}
	header := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(header, " ")
	switch {
	case header == "":
		return refuse("no token", "admin routes need the header Authorization: Bearer <admin token>")
	case !strings.EqualFold(scheme, "Bearer"):
		return refuse("not a bearer token", "want the header Authorization: Bearer <admin token>")
	case !tokenMatch(s.adminSum, strings.TrimSpace(token)):
		return refuse("wrong token", "wrong admin token")
	}
	return nil, ""
}

// serveAdmin checks an admin request before serve runs it: the token first (an
// unauthenticated client learns nothing else), then the method. It answers and returns
// false if the request goes no further.
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request, rt *rest.Route) bool {
	if e, reason := s.authorize(r); e != nil {
		slog.Warn("admin request refused", "route", rt.Pattern, "method", r.Method, "remote", r.RemoteAddr,
			"reason", reason)
		w.Header().Set("WWW-Authenticate", bearerChallenge)
		rest.WriteError(w, r, e, nil)
		return false
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		rest.WriteError(w, r, &rest.APIError{Status: http.StatusMethodNotAllowed, Title: "method not allowed",
			Detail: r.Method + " " + rt.Pattern + ": admin routes take POST"}, nil)
		return false
	}
	// The answer may come after the server's write timeout, which is sized for reads.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.AdminTimeout + 10*time.Second))
	return true
}

// logAdmin records an admin request that ran: its route, parsed parameters (never the
// raw query) and outcome.
func logAdmin(r *http.Request, rt *rest.Route, in *rest.Input, status int, took time.Duration) {
	args := []any{"route", rt.Pattern, "remote", r.RemoteAddr, "status", status,
		"took", took.Round(time.Millisecond)}
	for name, v := range in.Values {
		args = append(args, name, canonicalText(v))
	}
	slog.Info("admin request", args...)
}

func canonicalText(v any) string {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Format(time.RFC3339)
	}
	return fmt.Sprint(v)
}

// leaseOwner names this server in a lease: host, process and request, so that two
// admin requests for one date, even to the same process, never share a lease.
func (s *Server) leaseOwner() string {
	return fmt.Sprintf("api/%s/%d/%d", hostname, os.Getpid(), s.adminSeq.Add(1))
}

var hostname = func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown-host"
	}
	return h
}()

// dayResultJSON is the answer of POST /admin/analytics/daily/{date}.
type dayResultJSON struct {
	Date           string `json:"date"`
	StartMilestone uint32 `json:"startMilestone"`
	EndMilestone   uint32 `json:"endMilestone"`
	Milestones     int    `json:"milestones"`
	TotalAddresses int    `json:"totalAddresses"`
	SendAddresses  int    `json:"sendAddresses"`
	RecvAddresses  int    `json:"recvAddresses"`
	TookMs         int64  `json:"tookMs"`
}

// adminDayParams name the date of a daily job.
type adminDayParams struct {
	Date time.Time `path:"date" kind:"date" doc:"the UTC date, YYYY-MM-DD"`
}

func (s *Server) adminDaily(ctx context.Context, _ *rest.Input, p *adminDayParams) (any, error) {
	day := p.Date
	res, err := analytics.Job{Store: s.st, Owner: s.leaseOwner()}.Run(ctx, day, false)
	var incomplete *analytics.IncompleteError
	switch {
	case errors.Is(err, analytics.ErrLeaseHeld):
		return nil, &rest.APIError{Status: http.StatusConflict, Title: "lease held",
			Detail: fmt.Sprintf("%s: %v; retry later", day.Format(rest.DateLayout), err)}
	case errors.As(err, &incomplete):
		return nil, &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "date incomplete",
			Detail: incomplete.Error()}
	case err != nil:
		return nil, err
	}
	return dayResultJSON{Date: res.Date, StartMilestone: res.StartMs, EndMilestone: res.EndMs,
		Milestones: res.Milestones, TotalAddresses: res.TotalAddresses, SendAddresses: res.SendAddresses,
		RecvAddresses: res.RecvAddresses, TookMs: res.Took.Milliseconds()}, nil
}

// resyncJSON is the answer of POST /admin/resync.
type resyncJSON struct {
	From     uint32 `json:"from"`
	To       uint32 `json:"to"`
	Unsynced int    `json:"unsynced"` // sync rows deleted: the milestones of [from, to] that had one
}

// adminResync deletes the sync rows of [from, to] that exist (no tombstones for rows
// that never were). A failure part-way leaves some deleted: the answer is then an error,
// and a retry deletes the rest.
// resyncParams are the milestones whose sync rows go.
type resyncParams struct {
	From uint32 `query:"from" kind:"index" required:"true" doc:"first milestone index"`
	To   uint32 `query:"to" kind:"index" required:"true" doc:"last milestone index (inclusive)"`
}

func (s *Server) adminResync(ctx context.Context, _ *rest.Input, p *resyncParams) (any, error) {
	from, to := p.From, p.To
	switch width := uint64(to) - uint64(from) + 1; {
	case to < from:
		return nil, rest.BadParam("to", "%d is before from (%d)", to, from)
	case width > maxResyncRange:
		return nil, rest.BadParam("to", "range of %d milestones is wider than %d", width, maxResyncRange)
	}
	if err := s.st.CheckRefetchable(ctx, from); errors.Is(err, store.ErrBelowSources) {
		return nil, rest.BadParam("from", "%v", err)
	} else if err != nil {
		return nil, err
	}
	// Milestone indexes are stored as int: no sync row lies past math.MaxInt32.
	synced, err := s.st.Synced(ctx, from, min(to, math.MaxInt32))
	if err != nil {
		return nil, err
	}
	var deleted atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
	for index := range synced {
		g.Go(func() error {
			if err := s.st.Unsync(gctx, index); err != nil {
				return err
			}
			deleted.Add(1)
			return nil
		})
	}
	err = g.Wait()
	if deleted.Load() > 0 {
		err = errors.Join(err, s.forgetResynced(ctx, from, to))
	}
	if err != nil {
		slog.Warn("resync cut short", "from", from, "to", to, "unsynced", deleted.Load(), "of", len(synced), "error", err)
		return nil, err
	}
	if err := s.st.FlushSyncSummary(ctx); err != nil { // GET /sync shows the gaps at once
		return nil, fmt.Errorf("resync done, sync summary not updated yet (retried within a second): %w", err)
	}
	return resyncJSON{From: from, To: to, Unsynced: int(deleted.Load())}, nil
}
