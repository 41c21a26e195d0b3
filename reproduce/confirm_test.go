package reproduce

import (
	"io"
	"strings"
	"testing"
)

// flood is an input of n bytes without a newline, as /dev/zero is (cut
// at n so that the test itself stays bounded); it counts what was read.
type flood struct{ n, read int }

func (f *flood) Read(p []byte) (int, error) {
	if f.read >= f.n {
		return 0, io.EOF
	}
	p = p[:min(len(p), f.n-f.read)]
	for i := range p {
		p[i] = 'y'
	}
	f.read += len(p)
	return len(p), nil
}

// The confirmation reads at most maxAnswerBytes: an input without a
// newline is a no, read no further than that, not a read that grows as
// long as the input goes on.
func TestConfirmBoundsTheAnswer(t *testing.T) {
	in := &flood{n: 64 << 20}
	if ok, _ := Confirm(in, io.Discard); ok {
		t.Error("an endless answer was taken for a yes")
	}
	if in.read > maxAnswerBytes {
		t.Errorf("confirm read %d bytes of the answer", in.read)
	}
	if ok, _ := Confirm(strings.NewReader("yes\n"), io.Discard); !ok {
		t.Error("yes was not a yes")
	}
}

// Ask reads one line and no further: a second question reads the next
// line of the same input (a resume asks about the folder, then about
// the commands), where a buffered read would have taken both.
func TestAskReadsOneLine(t *testing.T) {
	in := strings.NewReader("y\nn\nyes\n")
	for i, want := range []bool{true, false, true, false} {
		if ok, _ := Ask(in, io.Discard, "Go on?"); ok != want {
			t.Errorf("answer %d: %v, want %v", i+1, ok, want)
		}
	}
}
