// Package tip25 gives the chain types their TIP-25 JSON form (`/api/core/v2`), exactly as
// Hornet (iota.go v3) serves them and as @iota/iota.js 2.0.0-rc.4 parses them, and decodes
// that JSON back into chain types.
//
// Conventions (shared/reference/stardust-wire.md section 9): byte strings are lowercase 0x
// hex; uint64 values are decimal strings; uint256 values are 0x + minimal big-endian hex
// ("0x0" for zero); small integers are JSON numbers; empty optional parts are omitted.
//
// Where the TIP-25 yaml and the node libraries disagree this package follows iota.go and
// iota.js, which is what real nodes serve and wallets parse:
//   - storage deposit return's amount is "amount" (yaml: "returnAmount");
//   - tokenScheme is one object with "maximumSupply" (yaml: an array, "maxSupply");
//   - rentStructure's key factor is "vByteFactorKey" (yaml schema: "vByteFactoKey");
//   - a receipt's fund "deposit" is a string (yaml: integer), its option type is 0 (yaml: 3).
//
// Legacy (Chrysalis) outputs have no TIP-25 form: Output returns ErrLegacyOutput for them.
//
// The API serves these forms and the node source reads a node's JSON answers (info,
// metadata, UTXO changes, MQTT events) through them. The decoders (DecodeBlock,
// DecodeOutput, DecodeMilestone) check JSON against the chain codec; the API's
// proof-of-inclusion validation decodes the posted block and milestone with DecodeBlock
// and DecodeMilestone. The node source does not call them, as it reads blocks, milestones
// and outputs in binary, whose bytes hash to the IDs it verifies. The package imports
// only chain and the standard library. The type codes are chain's.
package tip25
