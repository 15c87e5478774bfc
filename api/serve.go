package api

import (
	"context"
	"net/http"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// serve runs one request of rt: method check (and token, for admin routes),
// parameters, deadline, handler, answer.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt *rest.Route) {
	if rt.Mux != "" && !rt.Matches(r.URL.Path) {
		s.fail(w, r, rt, rest.NotFound("no route %s (see /openapi.json)", r.URL.Path), nil)
		return
	}
	switch {
	case rt.Refuse != nil:
		s.fail(w, r, rt, rt.Refuse(r), nil)
		return
	case rt.Admin:
		if !s.serveAdmin(w, r, rt) {
			return
		}
	case rt.Body != "":
		if !allowPost(w, r, rt) {
			return
		}
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, rt, &rest.APIError{Status: http.StatusMethodNotAllowed, Title: "method not allowed",
			Detail: r.Method + " " + r.URL.Path + ": this API is read-only (GET, HEAD)"}, nil)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, rt.MaxBody())
	if rt.Plain != nil {
		s.setCacheHeaders(w, rt, classOf(rt, nil))
		rt.Plain.ServeHTTP(w, r)
		return
	}
	in, err := rest.ParseInput(rt, r.PathValue, r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, rt, rest.Classify(r.Context(), err, false), err)
		return
	}
	in.Accept, in.Body, in.LastEventID = r.Header.Get("Accept"), r.Body, r.Header.Get("Last-Event-ID")
	if s.revalidated(w, r, rt, in) {
		return
	}
	parent, timeout := r.Context(), s.cfg.RequestTimeout
	if rt.Admin {
		// An admin job, once started, runs to its end even if the client leaves: a
		// half-done one is safe to redo, but its client should not cause it.
		parent, timeout = context.WithoutCancel(parent), s.cfg.AdminTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	start := time.Now()
	out, err := s.handle(ctx, rt, in)
	if err != nil {
		e := rest.Classify(ctx, err, in.Cursor != nil)
		if rt.Admin {
			logAdmin(r, rt, in, e.Status, time.Since(start))
		}
		s.fail(w, r, rt, e, err)
		return
	}
	if rt.Admin {
		logAdmin(r, rt, in, http.StatusOK, time.Since(start))
	}
	if st, ok := out.(*rest.Stream); ok {
		s.stream(w, r, rt, st)
		return
	}
	rest.SetCoverageHeader(w, out)
	s.answer(w, r, rt, in, out)
}

// fail answers e with its cache headers (setErrorCache).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, rt *rest.Route, e *rest.APIError, cause error) {
	s.setErrorCache(w, rt, e.Status)
	rest.WriteRouteError(w, r, rt, e, cause)
}

// handle runs rt's handler once the request's addresses are in the network's form.
func (s *Server) handle(ctx context.Context, rt *rest.Route, in *rest.Input) (any, error) {
	hrp, err := s.hrp(ctx)
	if err != nil {
		return nil, err
	}
	in.Localize(hrp)
	return rt.Handle(ctx, in)
}

// hrp is the bech32 HRP of the keyspace's network. Until an indexer has recorded the
// network nothing is indexed, and addresses are shown in hex.
func (s *Server) hrp(ctx context.Context) (string, error) {
	rec, ok, err := s.st.Network(ctx)
	if err != nil || !ok {
		return "", err
	}
	return rec.HRP, nil
}

// defaultRequestTimeout bounds every query a request runs (Config.RequestTimeout).
const defaultRequestTimeout = 5 * time.Second

// allowPost answers 405 to a route with a body asked with another method; it returns
// false if the request goes no further.
func allowPost(w http.ResponseWriter, r *http.Request, rt *rest.Route) bool {
	if r.Method == http.MethodPost {
		return true
	}
	w.Header().Set("Allow", http.MethodPost)
	rest.WriteRouteError(w, r, rt, &rest.APIError{Status: http.StatusMethodNotAllowed, Title: "method not allowed",
		Detail: r.Method + " " + rt.Pattern + ": this route takes POST with a JSON body"}, nil)
	return false
}
