package nodetest

import (
	"net/http"
	"slices"
)

// block serves a block's bytes (binary only), altered if CorruptBlock is on for it.
func (s *Server) block(w http.ResponseWriter, r *http.Request, arg string) {
	var id [32]byte
	if !parseID(arg, id[:]) {
		writeError(w, http.StatusBadRequest, "invalid block ID %q", arg)
		return
	}
	b := s.ix.block(id)
	if b == nil || s.withheld(id) {
		writeError(w, http.StatusNotFound, "block %s not found", arg)
		return
	}
	if !wantsBinary(r) {
		noJSON(w)
		return
	}
	s.mu.Lock()
	corrupt := s.corrupt[id]
	s.mu.Unlock()
	raw := b.Raw
	if corrupt {
		// Flip the nonce's last byte: still a well-formed block, but another ID.
		raw = slices.Clone(raw)
		raw[len(raw)-1] ^= 0xff
	}
	writeBinary(w, raw)
}

// blockMetadataJSON is TIP-25's block metadata; referenced-only fields are omitted for blocks
// the confirmed milestone does not reference yet.
type blockMetadataJSON struct {
	BlockID                    string   `json:"blockId"`
	Parents                    []string `json:"parents"`
	IsSolid                    bool     `json:"isSolid"`
	ReferencedByMilestoneIndex uint32   `json:"referencedByMilestoneIndex,omitempty"`
	MilestoneIndex             uint32   `json:"milestoneIndex,omitempty"`
	LedgerInclusionState       string   `json:"ledgerInclusionState,omitempty"`
	ConflictReason             uint8    `json:"conflictReason,omitempty"`
	WhiteFlagIndex             *uint32  `json:"whiteFlagIndex,omitempty"`
	ShouldPromote              bool     `json:"shouldPromote"`
	ShouldReattach             bool     `json:"shouldReattach"`
}

func (s *Server) blockMetadata(w http.ResponseWriter, _ *http.Request, arg string) {
	var id [32]byte
	if !parseID(arg, id[:]) {
		writeError(w, http.StatusBadRequest, "invalid block ID %q", arg)
		return
	}
	md := blockMetadataJSON{BlockID: hex0x(id[:]), Parents: []string{}, IsSolid: true}
	b := s.ix.block(id)
	switch {
	case s.withheld(id):
		writeError(w, http.StatusNotFound, "block %s not found", arg)
		return
	case b != nil:
		md.Parents = hexList(b.Parents)
		if b.ReferencedBy <= s.Confirmed() {
			wf := b.WhiteFlagIndex
			md.ReferencedByMilestoneIndex, md.MilestoneIndex, md.WhiteFlagIndex = b.ReferencedBy, b.MilestoneIndex, &wf
			md.LedgerInclusionState, md.ConflictReason = b.InclusionState, b.ConflictReason
		}
	case s.ix.isOutside(id):
		// Referenced before the set: its bytes, parents and white-flag index are unknown, but a
		// cone walk only needs to see that an older milestone referenced it.
		md.ReferencedByMilestoneIndex, md.LedgerInclusionState = s.ix.lowestIndex()-1, "noTransaction"
	default:
		writeError(w, http.StatusNotFound, "block %s not found", arg)
		return
	}
	writeJSON(w, md)
}
