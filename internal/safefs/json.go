package safefs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ReadJSON reads the file at path through the guarded reader (ReadFile,
// at most limit bytes) and decodes it into v strictly (DecodeJSON). It is
// how decodebench reads back the state files it wrote itself, so a file
// another version or a hand wrote is refused, not half understood. A
// read error is ReadFile's; a decode error names path.
func ReadJSON(path string, limit int64, v any) error {
	b, err := ReadFile(path, limit)
	if err != nil {
		return err
	}
	if err := DecodeJSON(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// DecodeJSON decodes b into v strictly: a field v has no place for is
// refused, as is anything after the one JSON value.
func DecodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if err := dec.Decode(&json.RawMessage{}); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}
