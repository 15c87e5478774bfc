package api

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

// apiError is an answer other than 200: its status and the JSON body
// {"error": Title, "detail": Detail}.
type apiError struct {
	Status     int    `json:"-"`
	Title      string `json:"error"`
	Detail     string `json:"detail,omitempty"`
	RetryAfter int    `json:"-"` // seconds; 0: no Retry-After header
	// Expected: a 5xx that is an answer, not a failure (a permanode's 501, an unhealthy
	// /health): nothing to log.
	Expected bool `json:"-"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Title, e.Detail) }

// badParam is a 400 naming the parameter at fault and why.
func badParam(name, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Title: "invalid parameter",
		Detail: fmt.Sprintf("%s: %s", name, fmt.Sprintf(format, args...))}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: fmt.Sprintf(format, args...)}
}

// retryAfterSeconds is what a 503 asks clients to wait: long enough for a coordinator
// to fail over or a node to come back, short enough not to stall a wallet.
const retryAfterSeconds = 2

func unavailable(detail string) *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, Title: "database unavailable", Detail: detail,
		RetryAfter: retryAfterSeconds}
}

// classify turns a handler's error into the answer. ctx is the request's context (to
// tell our deadline from the client leaving); withCursor says a client cursor's paging
// state went to the database, so a statement the node refuses is the cursor's fault.
func classify(ctx context.Context, err error, withCursor bool) *apiError {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, store.ErrNotFound):
		return notFound("%v", err)
	case errors.Is(err, analytics.ErrBadRange): // the handlers check ranges first; this is a backstop
		return badParam("range", "%v", err)
	case withCursor && store.Refused(err):
		return badParam("cursor", "the database refused its paging state")
	}
	if why, ok := store.Unavailable(err); ok {
		return unavailable("database " + why + ", retry later")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return unavailable("the database did not answer within the request timeout")
		}
		return &apiError{Status: 499, Title: "client closed request"} // nobody reads it; keeps 5xx metrics honest
	}
	return &apiError{Status: http.StatusInternalServerError, Title: "internal error",
		Detail: "see the server log"}
}

// writeError sends e as JSON and logs server-side failures with their cause.
func writeError(w http.ResponseWriter, r *http.Request, e *apiError, cause error) {
	sendError(w, r, e, cause, e)
}

// sendError logs server-side failures with their cause and sends body with e's status.
func sendError(w http.ResponseWriter, r *http.Request, e *apiError, cause error, body any) {
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

// writeRouteError sends e in the form rt's clients read: TIP-25's {"error": {"code",
// "message"}} on the node interfaces, this API's own form elsewhere.
func writeRouteError(w http.ResponseWriter, r *http.Request, rt *route, e *apiError, cause error) {
	if !rt.nodeErrorBody {
		writeError(w, r, e, cause)
		return
	}
	msg := e.Title
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	sendError(w, r, e, cause, tip25.Error(e.Status, msg))
}

// missingIsInternal turns a row that must exist but does not into a server error (a 500,
// not a 404 about what the client asked for); other errors keep their meaning.
func missingIsInternal(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errors.New(err.Error())
	}
	return err
}

// ignoreNotFound drops store.ErrNotFound: a row that is not there is no failure.
func ignoreNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
