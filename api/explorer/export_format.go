package explorer

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// exportFormat is an export's file format: csv or jsonl.
type exportFormat string

const (
	formatCSV   exportFormat = "csv"
	formatJSONL exportFormat = "jsonl"
)

var exportFormatKind = rest.TypedKind(map[string]any{"type": "string", "enum": []string{"csv", "jsonl"},
	"default": "csv"}, func(name, v string) (exportFormat, error) {
	switch f := exportFormat(v); f {
	case formatCSV, formatJSONL:
		return f, nil
	}
	return "", rest.BadParam(name, "want csv or jsonl, got %s", rest.Quote(v))
})

var _ = rest.NamedKinds(map[string]rest.Kind{"exportFormat": exportFormatKind})

func (f *exportFormat) orDefault() exportFormat {
	if f == nil {
		return formatCSV
	}
	return *f
}

func (f exportFormat) media() string {
	if f == formatJSONL {
		return "application/jsonl; charset=utf-8"
	}
	return "text/csv; charset=utf-8; header=present"
}

// exportHeaderJSON is an export's first record.
type exportHeaderJSON struct {
	Record         string            `json:"record"` // "header"
	Network        string            `json:"network"`
	Address        string            `json:"address"`
	From           *int64            `json:"from"` // unix seconds asked for (null: open)
	To             *int64            `json:"to"`
	FirstMilestone uint32            `json:"firstMilestone"` // the milestones the range covers (0, 0: none)
	LastMilestone  uint32            `json:"lastMilestone"`
	LedgerIndex    uint32            `json:"ledgerIndex"`
	StartBalance   string            `json:"startBalance"` // before firstMilestone
	Token          tip25.BaseToken   `json:"token"`
	Coverage       rest.CoverageJSON `json:"coverage"`
	hrp            string
	startsAfter    uint32 // the milestone after which StartBalance is the balance
}

// filename is the export's file name: network, address and milestones.
func (h *exportHeaderJSON) filename(f exportFormat) string {
	return fmt.Sprintf("%s-%s-%d-%d.%s", h.Network, h.Address, h.FirstMilestone, h.LastMilestone, f)
}

// exportRowJSON is one ledger change of the address.
type exportRowJSON struct {
	Record             string            `json:"record"` // "change"
	MilestoneIndex     uint32            `json:"milestoneIndex"`
	MilestoneTimestamp int64             `json:"milestoneTimestamp"` // unix seconds
	Time               string            `json:"time"`               // the same, ISO-8601 UTC
	BlockID            string            `json:"blockId"`            // "" for an expiration, or a block not indexed
	TransactionID      string            `json:"transactionId"`      // "" for an expiration
	OutputID           string            `json:"outputId"`
	Event              string            `json:"event"`     // created, spent, expired
	Direction          string            `json:"direction"` // received, sent
	Amount             string            `json:"amount"`    // base units
	DisplayAmount      string            `json:"displayAmount"`
	NativeTokens       []nativeTokenJSON `json:"nativeTokens"`
	Counterparties     []string          `json:"counterparties"`
	BalanceAfter       string            `json:"balanceAfter"`
}

// nativeTokenJSON is a native token the output holds, its amount in decimal.
type nativeTokenJSON struct {
	ID     string `json:"id"`
	Amount string `json:"amount"`
}

// exportEndJSON is an export's last record: its absence means the export is cut short.
type exportEndJSON struct {
	Record  string `json:"record"` // "end"
	Rows    int    `json:"rows"`
	Balance string `json:"balance"` // after the last row
}

// exportWriter writes an export's records in one format.
type exportWriter interface {
	header(h *exportHeaderJSON) error
	row(r *exportRowJSON) error
	end(e exportEndJSON) error
	failure(err error)
}

func (f exportFormat) writer(w io.Writer) exportWriter {
	if f == formatJSONL {
		return jsonlWriter{json.NewEncoder(w)}
	}
	return &csvWriter{w: w, c: csv.NewWriter(w)}
}

// jsonlWriter writes one JSON object a line.
type jsonlWriter struct{ e *json.Encoder }

func (j jsonlWriter) header(h *exportHeaderJSON) error { return j.e.Encode(h) }
func (j jsonlWriter) row(r *exportRowJSON) error       { return j.e.Encode(r) }
func (j jsonlWriter) end(e exportEndJSON) error        { return j.e.Encode(e) }
func (j jsonlWriter) failure(err error) {
	_ = j.e.Encode(map[string]string{"record": "error", "error": err.Error()})
}

// csvWriter writes RFC 4180 rows; the header and end records are comment lines (#),
// which CSV readers skip when told (Go's csv.Reader.Comment, pandas' comment).
type csvWriter struct {
	w io.Writer
	c *csv.Writer
}

var csvColumns = []string{"milestoneIndex", "milestoneTimestamp", "time", "blockId", "transactionId", "outputId",
	"event", "direction", "amount", "displayAmount", "nativeTokens", "counterparties", "balanceAfter"}

func (c *csvWriter) comment(fields ...string) error {
	_, err := io.WriteString(c.w, "# "+strings.Join(fields, "; ")+"\n")
	return err
}

func (c *csvWriter) header(h *exportHeaderJSON) error {
	err := c.comment("stardust-indexer address export", "network="+h.Network, "address="+h.Address,
		"from="+unixText(h.From), "to="+unixText(h.To),
		fmt.Sprintf("milestones=%d-%d", h.FirstMilestone, h.LastMilestone), fmt.Sprintf("ledgerIndex=%d", h.LedgerIndex),
		"coverage="+h.Coverage.Status, fmt.Sprintf("since=%d", h.Coverage.Since), fmt.Sprintf("gaps=%d", h.Coverage.Gaps),
		"reason="+h.Coverage.Reason, "unit="+h.Token.Unit,
		"subunit="+h.Token.Subunit, fmt.Sprintf("decimals=%d", h.Token.Decimals), "startBalance="+h.StartBalance)
	if err != nil {
		return err
	}
	return c.write(csvColumns)
}

func (c *csvWriter) row(r *exportRowJSON) error {
	tokens := make([]string, len(r.NativeTokens))
	for i, t := range r.NativeTokens {
		tokens[i] = t.ID + "=" + t.Amount
	}
	return c.write([]string{strconv.FormatUint(uint64(r.MilestoneIndex), 10), strconv.FormatInt(r.MilestoneTimestamp, 10),
		r.Time, r.BlockID, r.TransactionID, r.OutputID, r.Event, r.Direction, r.Amount, r.DisplayAmount,
		strings.Join(tokens, ";"), strings.Join(r.Counterparties, ";"), r.BalanceAfter})
}

func (c *csvWriter) end(e exportEndJSON) error {
	return c.comment("end", fmt.Sprintf("rows=%d", e.Rows), "balance="+e.Balance)
}

func (c *csvWriter) failure(err error) {
	_ = c.comment("error", strings.ReplaceAll(err.Error(), "\n", " "))
}

func (c *csvWriter) write(fields []string) error {
	if err := c.c.Write(fields); err != nil {
		return err
	}
	c.c.Flush()
	return c.c.Error()
}

// unixText is unix seconds with their ISO-8601 UTC form, or "open".
func unixText(u *int64) string {
	if u == nil {
		return "open"
	}
	return fmt.Sprintf("%d (%s)", *u, isoTime(*u))
}

// isoTime is unix seconds in ISO-8601, UTC.
func isoTime(u int64) string { return time.Unix(u, 0).UTC().Format(time.RFC3339) }

// exportRecordSchema is the OpenAPI schema of a JSONL export's records: the header, the
// changes and the end, told apart by record.
func exportRecordSchema(str, integer rest.Object) rest.Object {
	strs := rest.ArrayOf(str)
	return rest.Props("record", rest.Object{"type": "string", "enum": []string{"header", "change", "end", "error"}},
		"network", str, "address", str, "from", integer, "to", integer, "firstMilestone", integer,
		"lastMilestone", integer, "ledgerIndex", integer, "startBalance", str, "token", rest.Object{"type": "object"},
		"coverage", rest.Ref("LedgerCoverage"), "milestoneIndex", integer, "milestoneTimestamp", integer, "time", str,
		"blockId", str, "transactionId", str, "outputId", str,
		"event", rest.Object{"type": "string", "enum": []string{"created", "spent", "expired"}},
		"direction", rest.Object{"type": "string", "enum": []string{"received", "sent"}}, "amount", str,
		"displayAmount", str, "nativeTokens", rest.ArrayOf(rest.Props("id", str, "amount", str)),
		"counterparties", strs, "balanceAfter", str, "rows", integer, "balance", str, "error", str)
}
