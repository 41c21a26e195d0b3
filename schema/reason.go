package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Code names a reason. Codes are stable: they are persisted in records.
// Each reason type's Code method holds its code (reasons_*.go).
type Code string

var allReasons = []Reason{
	CounterFailed{}, Declined{}, SourceAbsent{}, ControlDiffers{}, RunFailed{}, IdentityMismatch{}, Interrupted{}, ThinArm{}, TooNoisy{},
	TooFewSamples{}, TooFewRuns{}, ContendedHost{}, IdentityUndecided{}, IdentityBroken{}, Drift{}, RelativeDrift{}, Contention{},
	ComparisonNote{}, RunsExcluded{}, GatesRelaxed{}, AllowUnverified{}, HostOnBattery{}, HostLowPower{}, HostPowerModeChanged{}, HostThermal{}, HostGPUPowerCap{}, QuietTimedOut{}, OutputFlood{}, MetricNoValue{},
	NoEngineTimings{}, EventCounted{}, NoContention{}, NotRun{}, NoExactness{}, KernelTiming{}, ImpossibleValues{}, NoDiagnosis{}, NoEnergy{},
	IdentityEmptyBaseline{}, IdentityUncomparable{}, IdentityNonDeterministic{}, IdentityEmptyArm{}, IdentityNoRuns{},
	StreamsSerialised{}, TooManyStalls{}, HostOffHistory{}, ClocksDisagree{}, NoComparison{}, TooManyLostCounts{}, LostCounts{},
}

// Reason is one thing the analysis found: a verdict reason, a flag, a
// warning, something not measured, or an identity note. Each code is one
// struct with its own fields (reasons_*.go).
type Reason interface{ Code() Code }

// Reasons are stored as {"code": …, the reason's own fields}; a v2 record
// stores them in the legacy generic form (see Stored), which they are also
// read from.
type Reasons []Reason

// reasonTypes are the reason structs by code; legacyKeys the legacy
// form's fields by JSON name.
var (
	reasonTypes = map[Code]reflect.Type{}
	legacyKeys  = map[string]int{}
)

func init() {
	for _, r := range allReasons {
		reasonTypes[r.Code()] = reflect.TypeOf(r)
	}
	t := reflect.TypeOf(legacy{})
	for i := 0; i < t.NumField(); i++ {
		legacyKeys[strings.Split(t.Field(i).Tag.Get("json"), ",")[0]] = i
	}
}

// MarshalJSON writes each reason as {"code": …, own fields}.
func (rs Reasons) MarshalJSON() ([]byte, error) {
	if rs == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, r := range rs {
		if i > 0 {
			buf.WriteByte(',')
		}
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		if _, ok := r.(legacy); !ok {
			code, _ := json.Marshal(r.Code())
			rest := ""
			if string(b) != "{}" {
				rest = "," + string(b[1:len(b)-1])
			}
			b = []byte(`{"code":` + string(code) + rest + "}")
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads each reason by its code, from its own fields or, for
// a v2 record, from the legacy form. An unknown code is an error.
func (rs *Reasons) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	*rs = nil
	if raws != nil {
		*rs = make(Reasons, 0, len(raws))
	}
	for _, raw := range raws {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return err
		}
		var code Code
		if err := json.Unmarshal(fields["code"], &code); err != nil {
			return fmt.Errorf("reason without a code: %s", raw)
		}
		t, ok := reasonTypes[code]
		if !ok {
			return fmt.Errorf("unknown reason code %q", code)
		}
		delete(fields, "code")
		own, _ := json.Marshal(fields)
		v := reflect.New(t)
		if err := strict(own, v.Interface()); err != nil {
			var l legacy
			if strict(raw, &l) != nil {
				return fmt.Errorf("reason %s: %w", code, err)
			}
			mapLegacy(v.Elem(), reflect.ValueOf(&l).Elem(), false)
		}
		*rs = append(*rs, v.Elem().Interface().(Reason))
	}
	return nil
}

func strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// legacy is the generic form a v2 record stores a reason in. Each reason
// field's v2 tag names its legacy field (its JSON name when absent; "-" for
// a field no v2 record has); a bool
// tagged "text,word" is stored as that word in text.
type legacy struct {
	Kind    Code    `json:"code"`
	Arm     string  `json:"arm,omitempty"`
	Other   string  `json:"other,omitempty"`
	Counter string  `json:"counter,omitempty"`
	Metric  string  `json:"metric,omitempty"`
	Run     int     `json:"run,omitempty"`
	Round   int     `json:"round,omitempty"`
	Attempt int     `json:"attempt,omitempty"`
	N       int     `json:"n,omitempty"`
	M       int     `json:"m,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Limit   float64 `json:"limit,omitempty"`
	P       float64 `json:"p,omitempty"`
	Lo      float64 `json:"lo,omitempty"`
	Hi      float64 `json:"hi,omitempty"`
	Text    string  `json:"text,omitempty"`
}

func (l legacy) Code() Code { return l.Kind }

// mapLegacy copies a reason's fields (r) to the legacy form (l), or back.
func mapLegacy(r, l reflect.Value, toLegacy bool) {
	for i := 0; i < r.NumField(); i++ {
		f, sf := r.Field(i), r.Type().Field(i)
		if sf.Anonymous {
			mapLegacy(f, l, toLegacy)
			continue
		}
		tag := sf.Tag.Get("v2")
		if tag == "-" {
			continue // newer than v2: no v2 record has it
		}
		if tag == "" {
			tag = strings.Split(sf.Tag.Get("json"), ",")[0]
		}
		key, word, _ := strings.Cut(tag, ",")
		k, ok := legacyKeys[key]
		if !ok {
			panic("schema: reason field " + sf.Name + " has no legacy field " + key)
		}
		lf := l.Field(k)
		switch {
		case toLegacy && word != "":
			if f.Bool() {
				lf.SetString(word)
			}
		case toLegacy:
			lf.Set(f)
		case word != "":
			f.SetBool(lf.String() == word)
		default:
			f.Set(lf)
		}
	}
}

// toLegacy is a reason in the legacy form.
func toLegacy(r Reason) Reason {
	l := legacy{Kind: r.Code()}
	mapLegacy(reflect.ValueOf(r), reflect.ValueOf(&l).Elem(), true)
	return l
}

// Stored is the record as its schema version stores it: a v2 record's
// reasons in the legacy form, which check compares byte for byte.
func (r *Record) Stored() *Record {
	if r.Schema != SchemaV2 {
		return r
	}
	c := *r
	a := &c.Analysis
	for _, rs := range []*Reasons{&a.Reasons, &a.Flags, &a.Warnings, &a.Unmeasured} {
		*rs = legacyAll(*rs)
	}
	if a.Identity != nil {
		id := *a.Identity
		id.Notes = legacyAll(id.Notes)
		a.Identity = &id
	}
	return &c
}

func legacyAll(rs Reasons) Reasons {
	if rs == nil {
		return nil
	}
	out := make(Reasons, 0, len(rs))
	for _, r := range rs {
		out = append(out, toLegacy(r))
	}
	return out
}

// AllReasons is one value of every reason type, each with its zero fields.
func AllReasons() []Reason { return append([]Reason(nil), allReasons...) }
