package redact

import (
	"strings"
	"testing"
)

// The shapes a credential takes in what engines and builds print, each
// masked, and beside it the near-misses decodebench must leave alone
// (its own output among them: `validate --json` prints "key":
// "engine.command").
func TestTextShapes(t *testing.T) {
	for _, tt := range shapes {
		if got := (*Redactor)(nil).Text(tt.in); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if got := (*Redactor)(nil).Text(tt.want); got != tt.want {
			t.Errorf("not idempotent: %q -> %q", tt.want, got)
		}
	}
}

// A form's prefilter never hides a match of its pattern: each form masks
// the same with its prefilter as without, on every shape and on each of
// its lines.
func TestPrefiltersHideNothing(t *testing.T) {
	for _, tt := range shapes {
		for _, s := range append(strings.Split(tt.in, "\n"), tt.in) {
			for i, f := range forms {
				all := f
				all.pre, all.need = func(string) bool { return true }, needPre
				mask := func(string) string { return Mask }
				if got, want := replaceGroup(f, s, &probe{}, mask), replaceGroup(all, s, &probe{}, mask); got != want {
					t.Errorf("form %d's prefilter hides a match in %q: %q, without it %q", i, s, got, want)
				}
			}
		}
	}
}

const pem = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"

// shapes are texts and what redacting them gives.
var shapes = []struct{ in, want string }{
	// curl's user:password (a build command fetching with credentials),
	// and -u, -U and --user of other commands, which are no credentials.
	{`curl -fsSL -u alice:Zq8vLm3n https://h/x.tgz`, `curl -fsSL -u alice:[redacted] https://h/x.tgz`},
	{`curl --user=alice:pa55-word https://h/x`, `curl --user=alice:[redacted] https://h/x`},
	{`sh -c "curl -s --proxy-user p:q-secret http://h"`, `sh -c "curl -s --proxy-user p:[redacted] http://h"`},
	{`curl -u 'bob:pa55word' https://h`, `curl -u 'bob:[redacted]' https://h`},
	{`curl -ualice:pw123456 https://h`, `curl -ualice:[redacted] https://h`},
	{`curl -u ${USER}:${TOKEN} https://h`, `curl -u ${USER}:${TOKEN} https://h`},
	{`curl --user-agent a:b https://h`, `curl --user-agent a:b https://h`},
	{`date -u +%H:%M`, `date -u +%H:%M`},
	{`pip install -U torch:2`, `pip install -U torch:2`},
	{`docker run -u root:root img`, `docker run -u root:root img`},
	{`curl -sL https://h/i.sh | docker run -u root:root img`, `curl -sL https://h/i.sh | docker run -u root:root img`},
	{`rsync -u a:b c && curl https://h`, `rsync -u a:b c && curl https://h`},
	// A review's cases: curl must be the command, and a command ends at a
	// newline, ;, &, |, a backtick or a parenthesis, spaced or not.
	{"apt-get install -y curl\ndocker run -u root:root img", "apt-get install -y curl\ndocker run -u root:root img"},
	{`curl -fsS https://h/x;docker run -u root:root img`, `curl -fsS https://h/x;docker run -u root:root img`},
	{`curl -fsS https://h/x>/dev/null&&docker run -u root:root img`, `curl -fsS https://h/x>/dev/null&&docker run -u root:root img`},
	{`docker run --name curl -u root:root img`, `docker run --name curl -u root:root img`},
	{`wget https://h/curl -u a:bbbb`, `wget https://h/curl -u a:bbbb`},
	{`curl -o log-$(date -u +%Y%m%dT%H:%M:%S).txt https://h/x`, `curl -o log-$(date -u +%Y%m%dT%H:%M:%S).txt https://h/x`},
	{"x=`curl -s https://h/v` docker run -u root:rootgroup img", "x=`curl -s https://h/v` docker run -u root:rootgroup img"},
	{`INFO engine built with curl support -U ui:enabled`, `INFO engine built with curl support -U ui:enabled`},
	{`curl -u "$USER:$PASS" https://h`, `curl -u "$USER:$PASS" https://h`},
	{`curl -u "user:$(cat /run/secrets/pw)" https://h`, `curl -u "user:$(cat /run/secrets/pw)" https://h`},
	{`curl --user alice:firstPW12 -U bob:proxyPW34 https://h`, `curl --user alice:[redacted] -U bob:[redacted] https://h`},
	{`curl -u "alice:pa ss" https://h`, `curl -u "alice:[redacted]" https://h`},
	{`curl -u 'admin:P@ss;w|rd&1' https://h`, `curl -u 'admin:[redacted]' https://h`},
	{`curl -u alice:"s3cretpw" https://h`, `curl -u alice:"[redacted]" https://h`},
	{`curl -sSu alice:combinedPW1 https://h`, `curl -sSu alice:[redacted] https://h`},
	{`curl -sSualice:attachedPW1 https://h`, `curl -sSualice:[redacted] https://h`},
	{`curl -'u' alice:quotedFlagPW1 x`, `curl -'u' alice:[redacted] x`},
	{`curl -"u" alice:quotedFlagPW2 http://x`, `curl -"u" alice:[redacted] http://x`},
	{`curl -\u alice:escapedFlagPW3 http://x`, `curl -\u alice:[redacted] http://x`},
	{`curl -fsSLUproxy:attachedPW2 https://h`, `curl -fsSLUproxy:[redacted] https://h`},
	{`curl -sSv https://h:8080/x`, `curl -sSv https://h:8080/x`},
	{`/usr/bin/curl -u alice:pathPW123 https://h`, `/usr/bin/curl -u alice:[redacted] https://h`},
	{`timeout 60 curl -u a:pw12345 https://h && sudo -E curl --user=b:pw67890 h`, `timeout 60 curl -u a:[redacted] https://h && sudo -E curl --user=b:[redacted] h`},
	{`HTTPS_PROXY=http://p:3128 curl -U me:pr0xy https://h`, `HTTPS_PROXY=http://p:3128 curl -U me:[redacted] https://h`},
	// A second review's: comments, words that start a command, wrappers'
	// options that take a value, escaped quotes in sh -c's line.
	{"curl -fsSL -o x.tgz https://h/x   # the engine's tarball\ntar xf x.tgz  # it's run by docker run -u root:rootgroup img",
		"curl -fsSL -o x.tgz https://h/x   # the engine's tarball\ntar xf x.tgz  # it's run by docker run -u root:rootgroup img"},
	{"# fetch the engine's tarball\ncurl -fsSL -u alice:Pw0rd1234 https://h/x.tgz", "# fetch the engine's tarball\ncurl -fsSL -u alice:[redacted] https://h/x.tgz"},
	{`if curl -fsS -u alice:Pw0rd1234 https://h/x; then make; fi`, `if curl -fsS -u alice:[redacted] https://h/x; then make; fi`},
	{`for f in a b; do curl -u alice:Pw0rd1234 https://h/$f; done`, `for f in a b; do curl -u alice:[redacted] https://h/$f; done`},
	{`{ curl -u alice:Pw0rd1234 https://h; } > log`, `{ curl -u alice:[redacted] https://h; } > log`},
	{`+ curl -fsSL -u alice:Pw0rd1234 https://h/x`, `+ curl -fsSL -u alice:[redacted] https://h/x`},
	{`sudo -u builder curl -u alice:Pw0rd1234 https://h`, `sudo -u builder curl -u alice:[redacted] https://h`},
	{`env -u HTTP_PROXY HTTPS_PROXY=http://p:3128 curl -U me:Pw0rd1234 https://h`, `env -u HTTP_PROXY HTTPS_PROXY=http://p:3128 curl -U me:[redacted] https://h`},
	{`timeout -s KILL 60 curl -u alice:Pw0rd1234 https://h`, `timeout -s KILL 60 curl -u alice:[redacted] https://h`},
	{`xargs -I {} curl -u alice:Pw0rd1234 https://h/{}`, `xargs -I {} curl -u alice:[redacted] https://h/{}`},
	{`sudo -u curl docker run -u root:rootgroup img`, `sudo -u curl docker run -u root:rootgroup img`},
	{`sh -c "curl -u \"alice:pw 1234\" https://h"`, `sh -c "curl -u \"alice:[redacted]\" https://h"`},
	{"curl -u \"u:`cat /run/pw`\" https://h", "curl -u \"u:`cat /run/pw`\" https://h"},
	{`log: curl -u a:Pw0rd1234 failed`, `log: curl -u a:Pw0rd1234 failed`},
	// A third review's: references with a colon of their own, long
	// options of wrappers, curl's own options that take a value, values
	// that are no password.
	{`curl -u "${CURL_USER:-ci}:${CURL_PASS}" https://h`, `curl -u "${CURL_USER:-ci}:${CURL_PASS}" https://h`},
	{`curl -u "${NEXUS_USER:-deploy}":"${NEXUS_PASS}" h`, `curl -u "${NEXUS_USER:-deploy}":"${NEXUS_PASS}" h`},
	{`curl -u "${CI_USER:-ci}:s3cretPW9" h`, `curl -u "${CI_USER:-ci}:[redacted]" h`},
	{`sudo --user curl docker run -u root:rootgroup img`, `sudo --user curl docker run -u root:rootgroup img`},
	{`curl -U proxy.corp:8080 h`, `curl -U proxy.corp:8080 h`},
	{`curl -u https://h/x`, `curl -u https://h/x`},
	{`curl -u '<user>:<password>' h`, `curl -u '<user>:<password>' h`},
	{`curl -A -uagent:v1 h`, `curl -A -uagent:v1 h`},
	{`curl -- -u a:bbbbb`, `curl -- -u a:bbbbb`},
	// A fourth review's: a line's continuations, PowerShell's variables.
	{"sudo \\\n  curl -u alice:Pw0rd1234 https://h", "sudo \\\n  curl -u alice:[redacted] https://h"},
	{"curl -u \\\n  alice:Pw0rd1234 https://h", "curl -u \\\n  alice:[redacted] https://h"},
	{"curl \\\n-u alice:Pw0rd1234 https://h", "curl \\\n-u alice:[redacted] https://h"},
	{"sudo -u \\\n curl docker run -u root:rootgroup img", "sudo -u \\\n curl docker run -u root:rootgroup img"},
	{`curl.exe -u $env:NEXUS_CREDS https://h`, `curl.exe -u $env:NEXUS_CREDS https://h`},
	{`curl.exe -u "$env:NEXUS_USER:$env:NEXUS_PASS" h`, `curl.exe -u "$env:NEXUS_USER:$env:NEXUS_PASS" h`},
	// Shell: export -p, declare -x, a quoted NAME=value.
	{`export HF_TOKEN="Zq8vLm3nXw7pRt2k"`, `export HF_TOKEN="[redacted]"`},
	{`declare -x API_KEY="Zq8vLm3nXw7pRt2k"`, `declare -x API_KEY="[redacted]"`},
	{`export DB_PASSWORD='it"s a secret'`, `export DB_PASSWORD='[redacted]'`},
	{`export HOME="/home/u" PATH='/bin'`, `export HOME="/home/u" PATH='/bin'`},
	{`export API_KEY="${API_KEY}"`, `export API_KEY="${API_KEY}"`},
	// Python: a repr's keyword arguments, a dict, os.environ.
	{"Namespace(host='127.0.0.1', api_key='Zq9vLm3nXw7pRt2k', port=0)", "Namespace(host='127.0.0.1', api_key='[redacted]', port=0)"},
	{"connect(user='me', password='hunter22')", "connect(user='me', password='[redacted]')"},
	{`os.environ['DB_PASSWORD'] = "Zq5vLm3nXw7pRt2k"`, `os.environ['DB_PASSWORD'] = "[redacted]"`},
	{`os.environ["MODEL_DIR"] = "/models/llama"`, `os.environ["MODEL_DIR"] = "/models/llama"`},
	{`api_token = "Zq5vLm3nXw7pRt2k"`, `api_token = "[redacted]"`},
	// JSON: escaped inside a JSON string, Go's http.Header.
	{`{"msg":"{\"password\":\"Zq7vLm3nXw7pRt2k\"}"}`, `{"msg":"{\"password\":\"[redacted]\"}"}`},
	{`{"msg":"{\"model\":\"llama-3\"}"}`, `{"msg":"{\"model\":\"llama-3\"}"}`},
	{`{"password":"ab\"cd-ef"}`, `{"password":"[redacted]"}`},
	{`{"headers":{"Authorization":["Basic dXNlcjpaUTZ2TG0zblh3N3BSdDJr"]}}`, `{"headers":{"Authorization":["[redacted]"]}}`},
	{`{"headers":{"Accept":["text/plain"]}}`, `{"headers":{"Accept":["text/plain"]}}`},
	// decodebench's own JSON: a bare word is no setting's name.
	{`{"key": "engine.command", "message": "required"}`, `{"key": "engine.command", "message": "required"}`},
	{`{"token": "</s>", "max_tokens": "64", "n_keys": "1234"}`, `{"token": "</s>", "max_tokens": "64", "n_keys": "1234"}`},
	// A setting with no blank after its colon.
	{"PASSWORD:Zq5vLm3nXw7pRt2k", "PASSWORD:[redacted]"},
	{"api_key:abc12345xyz", "api_key:[redacted]"},
	{"key:engine.command token:12 auth:disabled", "key:engine.command token:12 auth:disabled"},
	{"http://localhost:8080/v1 ports:8080,8081", "http://localhost:8080/v1 ports:8080,8081"},
	// Google's OAuth access token; Basic credentials outside a header.
	{"using ya29.a0AfH6SMBx3jKlmnopqrstuvwxyz012345 now", "using [redacted] now"},
	{"ya29.short", "ya29.short"},
	{"retry with Basic dXNlcjpaUTZ2TG0zblh3N3BSdDJr.", "retry with Basic [redacted]."},
	{"Basic configuration loaded; basic auth off", "Basic configuration loaded; basic auth off"},
	// Every key of a list of keys.
	{"srv --api-key k1secret,k2secret --port 8", "srv --api-key [redacted] --port 8"},
	{`srv --api-key="Zq5vLm3nXw7pRt2k"`, `srv --api-key="[redacted]"`},
	{"['--model', 'm.gguf', '--api-key', 'Zq5vLm3nXw7pRt2k']", "['--model', 'm.gguf', '--api-key', '[redacted]']"},
	{"use --api-key, then --port", "use --api-key, then --port"},
	{"--tensor-split 1,2 --ctx-size 4096", "--tensor-split 1,2 --ctx-size 4096"},
	// PEM private keys: whole, a line at a time, \n-escaped in JSON.
	{"-----BEGIN PRIVATE KEY-----\n" + pem + "\nabc=\n-----END PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----"},
	{"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "[redacted]"},
	{"  " + pem, "  [redacted]"},
	{`{"type": "service_account", "pk": "-----BEGIN PRIVATE KEY-----\n` + pem + `\n-----END PRIVATE KEY-----\n", "x": 1}`,
		`{"type": "service_account", "pk": "-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----\n", "x": 1}`},
	{"-----BEGIN OPENSSH PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----"},
	{"no -----BEGIN PRIVATE KEY----- line found", "no -----BEGIN PRIVATE KEY----- line found"},
	{"734623566784fdce1d70f316e8dba82dc88772af9d1b362e60f6c861598b096c", "734623566784fdce1d70f316e8dba82dc88772af9d1b362e60f6c861598b096c"},
	{"THEQUICKBROWNFOXJUMPSOVERTHELAZYDOG0123456789", "THEQUICKBROWNFOXJUMPSOVERTHELAZYDOG0123456789"},
	// Paths are base64's alphabet too: a bisect's build command names one.
	{"/tmp/TestResumeAfterKill9971956030/002/stop", "/tmp/TestResumeAfterKill9971956030/002/stop"},
	{"/tmp/TestResumeAfterKill9971956030/002/work/reference/build/binA", "/tmp/TestResumeAfterKill9971956030/002/work/reference/build/binA"},
	{"test -f /tmp/TestResumeAfterKill9971956030/002/stop && exit 3", "test -f /tmp/TestResumeAfterKill9971956030/002/stop && exit 3"},
	{"output " + pem + " inline", "output " + pem + " inline"},
	// The forms before these: a URL's credentials, a bearer token, a
	// cookie, a signature, a token by its format.
	{"open postgres://me:pw@db:5432/x; Bearer abc.def", "open postgres://me:[redacted]@db:5432/x; Bearer [redacted]"},
	{"Cookie: sid=77 and ?X-Amz-Signature=9f86d0&x=1", "Cookie: [redacted]"},
	{"GET /m?X-Amz-Signature=9f86d0&x=1 ghp_" + strings.Repeat("aB3", 12), "GET /m?X-Amz-Signature=[redacted]&x=1 [redacted]"},
	// A flag's value, a setting's, a header's, a token's, each
	// past the others in one line.
	{`srv -H "X-Api-Key: Zq5vLm3nXw7pRt2k" --hf-token=hf_Zq5vLm3nXw7pRt2kAB9 -e "AUTH_TOKEN=Zq5vLm3nXw7pRt2k"`,
		`srv -H "X-Api-Key: [redacted]" --hf-token=[redacted] -e "AUTH_TOKEN=[redacted]"`},
}

// Each key of a secret list is learned on its own: an engine given
// --api-key k1,k2 may print one key alone.
func TestListOfSecrets(t *testing.T) {
	r := New(Source{Commands: [][]string{{"srv", "--api-key", "firstkey123,secondkey456"}}})
	if got := r.Text("request with secondkey456 accepted"); strings.Contains(got, "secondkey456") {
		t.Errorf("the second key of a list left: %q", got)
	}
	if got := New(Source{Commands: [][]string{{"srv", "--api-key", "ab,cd"}}}).Text("ab,cd and ab cd"); got != "[redacted] and ab cd" {
		t.Errorf("short items of a list masked alone: %q", got)
	}
}
