package rest

import (
	"context"
	"fmt"
	"reflect"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Typed parameters: a route declares its parameters as the fields of a struct, and its
// handler receives that struct filled in, so no handler reads a parameter by its name.
// A field is tagged with where the parameter comes from and its name (`path:"aliasId"`
// or `query:"address"`), its kind (`kind:"address"`, a name of kindsByName) and its
// documentation (`doc:"..."`). A path parameter, and a query parameter tagged
// `required:"true"`, is a value; an optional query parameter a pointer, nil when the
// request does not give it. An address is a string: the address under the
// network's HRP, as the tables hold it. Embedded structs add their fields in place, so
// routes share groups of parameters. withParams builds the route's parameter lists from
// the struct in field order (what the validation and OpenAPI see), and refuses at
// startup a field whose type cannot hold its kind's values.

// kindsByName are the kinds a parameter field may name: the shared ones, and those a
// surface registers (namedKinds).
var kindsByName = map[string]Kind{
	"address": addressKind, "tag": tagKind, "bool": boolKind, "index": indexKind, "messageID": messageIDKind,
	"transactionID": transactionIDKind, "outputID": outputIDKind, "milestoneID": milestoneIDKind, "time": TimeKind,
	"date": dateKind, "pageSize": pageSizeKind, "sort": sortKind, "cursor": cursorKind,
	"aliasID": aliasIDKind, "nftID": nftIDKind, "foundryID": foundryIDKind,
}

// NamedKinds adds a surface's kinds to kindsByName (as a package variable's initializer,
// so before any route is built); a name taken twice is a programming error.
func NamedKinds(kinds map[string]Kind) bool {
	for name, k := range kinds {
		if _, taken := kindsByName[name]; taken {
			panic("api: kind " + name + " named twice")
		}
		kindsByName[name] = k
	}
	return true
}

// paramField is one field of a parameter struct: where it is and what it accepts.
type paramField struct {
	index []int
	Param Param
	path  bool
}

// WithParams binds handle to the parameters P declares: rt's path and query parameters
// become P's fields, and handle gets them filled.
func WithParams[P any](rt Route, handle func(ctx context.Context, in *Input, p *P) (any, error)) Route {
	fields := ParamFields(reflect.TypeFor[P](), nil)
	rt.Path, rt.Query = nil, nil
	for _, f := range fields {
		if f.path {
			rt.Path = append(rt.Path, f.Param)
		} else {
			rt.Query = append(rt.Query, f.Param)
		}
	}
	rt.Handle = func(ctx context.Context, in *Input) (any, error) {
		var p P
		if err := FillParams(reflect.ValueOf(&p).Elem(), fields, in); err != nil {
			return nil, err
		}
		return handle(ctx, in, &p)
	}
	return rt
}

// ParamFields lists the parameter fields of struct t (below index), embedded ones in place.
func ParamFields(t reflect.Type, index []int) []paramField {
	var out []paramField
	for i := range t.NumField() {
		sf := t.Field(i)
		at := append(append([]int{}, index...), i)
		if sf.Anonymous {
			out = append(out, ParamFields(sf.Type, at)...)
			continue
		}
		out = append(out, paramFieldOf(t, sf, at))
	}
	return out
}

func paramFieldOf(t reflect.Type, sf reflect.StructField, index []int) paramField {
	name, path := sf.Tag.Get("path"), true
	if name == "" {
		name, path = sf.Tag.Get("query"), false
	}
	k, ok := kindsByName[sf.Tag.Get("kind")]
	required := sf.Tag.Get("required") == "true"
	switch {
	case name == "":
		panic(fmt.Sprintf("api: %s.%s: no path or query tag", t, sf.Name))
	case !ok:
		panic(fmt.Sprintf("api: %s.%s: unknown kind %q", t, sf.Name, sf.Tag.Get("kind")))
	case (path || required) == (sf.Type.Kind() == reflect.Pointer):
		panic(fmt.Sprintf("api: %s.%s: a path or required parameter is a value, an optional one a pointer", t, sf.Name))
	case !holds(elem(sf.Type), k):
		panic(fmt.Sprintf("api: %s.%s: a %s cannot hold kind %q's %v", t, sf.Name, sf.Type, sf.Tag.Get("kind"), k.typ))
	}
	return paramField{index: index, path: path,
		Param: Param{Name: name, Kind: k, Doc: sf.Tag.Get("doc"), Required: path || required}}
}

func elem(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}

// holds says whether a field of type field can take a kind's values: of their own
// type; for an address a chain.LocalAddress or a string (its text under the network's
// HRP); for a textual kind (IDs) a string, the value's text.
func holds(field reflect.Type, k Kind) bool {
	switch {
	case k.typ == nil:
		return false
	case field == k.typ:
		return true
	case k.typ == reflect.TypeFor[chain.Address]():
		return field == reflect.TypeFor[chain.LocalAddress]() || field.Kind() == reflect.String
	}
	return k.textual && field.Kind() == reflect.String
}

// FillParams sets the fields of v the request gives; its addresses are already paired
// with their text under the network's HRP (Input.Localize runs before every handler).
func FillParams(v reflect.Value, fields []paramField, in *Input) error {
	for _, f := range fields {
		got, ok := in.Values[f.Param.Name]
		if !ok {
			continue
		}
		dst := v.FieldByIndex(f.index)
		if dst.Kind() == reflect.Pointer {
			dst.Set(reflect.New(dst.Type().Elem()))
			dst = dst.Elem()
		}
		val := reflect.ValueOf(got)
		if text, ok := got.(fmt.Stringer); ok && dst.Kind() == reflect.String && val.Kind() != reflect.String {
			val = reflect.ValueOf(text.String()) // an ID's text, an address's under the network's HRP
		}
		if !val.Type().AssignableTo(dst.Type()) {
			return fmt.Errorf("parameter %s: %v does not fit %s", f.Param.Name, val.Type(), dst.Type())
		}
		dst.Set(val)
	}
	return nil
}
