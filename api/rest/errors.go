package rest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// APIError is an answer other than 200: its status and the JSON body
// {"error": Title, "detail": Detail}.
type APIError struct {
	Status     int    `json:"-"`
	Title      string `json:"error"`
	Detail     string `json:"detail,omitempty"`
	RetryAfter int    `json:"-"` // seconds; 0: no Retry-After header
	// Expected: a 5xx that is an answer, not a failure (a permanode's 501, an unhealthy
	// /health): nothing to log.
	Expected bool `json:"-"`
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Title, e.Detail) }

// BadParam is a 400 naming the parameter at fault and why.
func BadParam(name, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Title: "invalid parameter",
		Detail: fmt.Sprintf("%s: %s", name, fmt.Sprintf(format, args...))}
}

func NotFound(format string, args ...any) *APIError {
	return &APIError{Status: http.StatusNotFound, Title: "not found", Detail: fmt.Sprintf(format, args...)}
}

// RetryAfterSeconds is what a 503 asks clients to wait: long enough for a coordinator
// to fail over or a node to come back, short enough not to stall a wallet.
const RetryAfterSeconds = 2

func unavailable(detail string) *APIError {
	return &APIError{Status: http.StatusServiceUnavailable, Title: "database unavailable", Detail: detail,
		RetryAfter: RetryAfterSeconds}
}

// Classify turns a handler's error into the answer. ctx is the request's context (to
// tell our deadline from the client leaving); withCursor says a client cursor's paging
// state went to the database, so a statement the node refuses is the cursor's fault.
func Classify(ctx context.Context, err error, withCursor bool) *APIError {
	var ae *APIError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, store.ErrNotFound):
		return NotFound("%v", err)
	case errors.Is(err, analytics.ErrBadRange): // the handlers check ranges first; this is a backstop
		return BadParam("range", "%v", err)
	case withCursor && store.Refused(err):
		return BadParam("cursor", "the database refused its paging state")
	}
	if why, ok := store.Unavailable(err); ok {
		return unavailable("database " + why + ", retry later")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return unavailable("the database did not answer within the request timeout")
		}
		return &APIError{Status: 499, Title: "client closed request"} // nobody reads it; keeps 5xx metrics honest
	}
	return &APIError{Status: http.StatusInternalServerError, Title: "internal error",
		Detail: "see the server log"}
}

// WriteError sends e as JSON and logs server-side failures with their cause.
func WriteError(w http.ResponseWriter, r *http.Request, e *APIError, cause error) {
	sendError(w, r, e, cause, e)
}

// sendError logs server-side failures with their cause and sends body with e's status.
func sendError(w http.ResponseWriter, r *http.Request, e *APIError, cause error, body any) {
	switch {
	case e.Expected:
	case e.Status == http.StatusServiceUnavailable:
		slog.Warn("database unavailable", "method", r.Method, "path", r.URL.Path, "error", cause)
	case e.Status >= 500:
		slog.Error("request failed", "method", r.Method, "path", r.URL.Path, "status", e.Status, "error", cause)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status, body)
}

// WriteRouteError sends e in the form rt's clients read: TIP-25's {"error": {"code",
// "message"}} on the node interfaces, this API's own form elsewhere.
func WriteRouteError(w http.ResponseWriter, r *http.Request, rt *Route, e *APIError, cause error) {
	if !rt.NodeErrorBody {
		WriteError(w, r, e, cause)
		return
	}
	msg := e.Title
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	sendError(w, r, e, cause, tip25.Error(e.Status, msg))
}

// MissingIsInternal turns a row that must exist but does not into a server error (a 500,
// not a 404 about what the client asked for); other errors keep their meaning.
func MissingIsInternal(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errors.New(err.Error())
	}
	return err
}

// IgnoreNotFound drops store.ErrNotFound: a row that is not there is no failure.
func IgnoreNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
