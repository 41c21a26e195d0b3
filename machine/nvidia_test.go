package machine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/schema"
)

func TestParseNvidiaSMI(t *testing.T) {
	tests := []struct {
		name    string
		out     []byte
		want    []schema.GPUInfo
		wantErr string
	}{
		{
			name: "h200 fixture",
			out:  readFile(t, "testdata/nvidia/h200/nvidia-smi-query-name-driver-memory.csv"),
			want: []schema.GPUInfo{{Name: "NVIDIA H200", Driver: "580.159.04", MemoryMiB: 143771}},
		},
		{
			name: "two gpus, older driver naming",
			out:  []byte("Tesla V100-SXM2-16GB, 535.183.01, 16384\nTesla V100-SXM2-16GB, 535.183.01, 16384\n"),
			want: []schema.GPUInfo{
				{Name: "Tesla V100-SXM2-16GB", Driver: "535.183.01", MemoryMiB: 16384},
				{Name: "Tesla V100-SXM2-16GB", Driver: "535.183.01", MemoryMiB: 16384},
			},
		},
		{
			// The GB10 shares system memory and nvidia-smi reports "[N/A]"
			// for memory.total: https://github.com/unslothai/unsloth/pull/10703,
			// https://github.com/mostlygeek/llama-swap/issues/782.
			name: "unified memory",
			out:  []byte("NVIDIA GB10, 580.126.09, [N/A]\n"),
			want: []schema.GPUInfo{{Name: "NVIDIA GB10", Driver: "580.126.09", MemoryMiB: 0}},
		},
		{
			name: "not supported",
			out:  []byte("NVIDIA GeForce RTX 4090, 560.35.03, [Not Supported]\n"),
			want: []schema.GPUInfo{{Name: "NVIDIA GeForce RTX 4090", Driver: "560.35.03", MemoryMiB: 0}},
		},
		{
			name: "blank lines and CRLF",
			out:  []byte("\r\nNVIDIA H200, 580.159.04, 143771\r\n\r\n"),
			want: []schema.GPUInfo{{Name: "NVIDIA H200", Driver: "580.159.04", MemoryMiB: 143771}},
		},
		{name: "no output", out: nil, want: nil},
		{
			// Output of a different query must not pass for this one.
			name:    "other query fixture",
			out:     readFile(t, "testdata/nvidia/h200/nvidia-smi-query-nounits.csv"),
			wantErr: "9 comma-separated fields",
		},
		{name: "missing field", out: []byte("NVIDIA H200, 580.159.04\n"), wantErr: "2 comma-separated fields"},
		{name: "units left on", out: []byte("NVIDIA H200, 580.159.04, 143771 MiB\n"), wantErr: `memory.total "143771 MiB"`},
		{name: "empty name", out: []byte(", 580.159.04, 143771\n"), wantErr: "empty GPU name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseNvidiaSMI(tt.out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseNvidiaSMI() error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseNvidiaSMI() error = %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseNvidiaSMI() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestNvidiaGPUsTool runs nvidiaGPUs against stand-ins for nvidia-smi on PATH.
func TestNvidiaGPUsTool(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in tools are shell scripts")
	}
	fixture, err := filepath.Abs("testdata/nvidia/h200/nvidia-smi-query-name-driver-memory.csv")
	if err != nil {
		t.Fatal(err)
	}
	// PATH will hold only the stand-in, so the scripts name their tools in full.
	cat, sleep := lookPath(t, "cat"), lookPath(t, "sleep")
	tests := []struct {
		name    string
		script  string // body of the stand-in nvidia-smi; "" for none on PATH
		timeout time.Duration
		want    []schema.GPUInfo
		wantErr string
	}{
		{name: "absent"},
		{
			name: "works",
			script: `[ "$*" = "` + strings.Join(nvidiaSMIArgs, " ") + `" ] || { echo "unexpected arguments: $*"; exit 2; }
exec '` + cat + `' '` + fixture + `'`,
			want: []schema.GPUInfo{{Name: "NVIDIA H200", Driver: "580.159.04", MemoryMiB: 143771}},
		},
		{
			// A driver that is installed but not loaded: the tool is there and fails.
			name: "no driver",
			script: `echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
exit 9`,
			wantErr: "exit status 9: NVIDIA-SMI has failed",
		},
		{
			// Output past MaxToolOutput ends nvidia-smi with an error
			// naming the bound, not one quoting its output.
			name:    "floods stdout",
			script:  "PATH='" + os.Getenv("PATH") + "'\nexec yes",
			wantErr: "output larger than decodebench accepts (the limit is 16 MiB",
		},
		{
			// A failure with a 64 MiB line on stderr quotes at most a
			// short line of it.
			name:    "floods stderr",
			script:  "PATH='" + os.Getenv("PATH") + "'\nhead -c 67108864 /dev/zero | tr '\\0' x >&2; exit 4",
			wantErr: "exit status 4: xxx",
		},
		{
			name:    "hangs",
			script:  "exec '" + sleep + "' 60",
			timeout: 300 * time.Millisecond,
			wantErr: "context deadline exceeded",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.script != "" {
				if err := execfile.Write(filepath.Join(dir, "nvidia-smi"), []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", dir)

			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			start := time.Now()
			got, err := nvidiaGPUs(ctx)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("nvidiaGPUs took %v", elapsed)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("nvidiaGPUs() error = %.300v, want one containing %q", err, tt.wantErr)
				}
				if len(err.Error()) > 512 {
					t.Errorf("the error quotes %d bytes of the tool's output", len(err.Error()))
				}
				return
			}
			if err != nil {
				t.Fatalf("nvidiaGPUs() error = %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("nvidiaGPUs() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func lookPath(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("stand-in scripts need %s: %v", tool, err)
	}
	return p
}
