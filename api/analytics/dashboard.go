package analytics

import (
	"embed"
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// DashboardFiles are the dashboard's page, script and style sheet: static, with no
// data in them (the script reads the API as any client does, with the read token).
//
//go:embed dashboard/index.html dashboard/app.js dashboard/style.css
var DashboardFiles embed.FS

// DashboardCSP keeps the page to its own files and its own API: no script, style or
// connection elsewhere, no inline script.
const DashboardCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// DashboardRoutes serve the dashboard page at /dashboard and its two files beside it.
// They are public even with a read token: the page holds no data, and its script sends
// the token the user gives it on every API call.
func (s *API) DashboardRoutes() []rest.Route {
	page := func(pattern, file, media, summary string) rest.Route {
		return rest.Route{Pattern: pattern, Tag: "dashboard", Summary: summary, Media: media, Public: true,
			Plain: dashboardFile(file, media)}
	}
	return []rest.Route{
		page("/dashboard", "dashboard/index.html", "text/html",
			"The dashboard: sync state, milestones per minute, the analytics families, richest addresses "+
				"and token distribution, drawn in the browser from this API (open /dashboard#token=<read token>)"),
		page("/dashboard/app.js", "dashboard/app.js", "text/javascript", "The dashboard's script"),
		page("/dashboard/style.css", "dashboard/style.css", "text/css", "The dashboard's style sheet"),
	}
}

// dashboardFile serves one embedded file (read once: embedded files cannot fail).
func dashboardFile(name, media string) http.Handler {
	body, err := DashboardFiles.ReadFile(name)
	if err != nil {
		panic("dashboard: " + name + " is not embedded: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", media+"; charset=utf-8")
		h.Set("Content-Security-Policy", DashboardCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		_, _ = w.Write(body)
	})
}
