#include "probe/metrics/metrics_script.hpp"

#include "probe/transfer/nixl_python_script.hpp"

namespace icheck::probe {
namespace {

// Prefixes of the families kept (rules/nixl/kv_metrics.hpp reads them); the rest of a page
// (hundreds of histogram buckets) stays in the pod.
constexpr std::string_view kKeptPrefixes =
    "vllm:nixl_ vllm:prompt_tokens vllm:request_success sglang:kv_transfer_ "
    "sglang:num_transfer_failed sglang:num_bootstrap_failed sglang:num_requests_total "
    "sglang:prompt_tokens_total agent_";

// argv: MARK INTERVAL_S READ_S CAP PREFIXES PORT:PATH...  No single quote: it travels inside
// sh -c '...'.
constexpr std::string_view kPython = R"ICHECK_PY(
import http.client, sys, time
mark, gap, bound, cap = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
keep = tuple(sys.argv[5].split())
eps = [a.split(":", 1) for a in sys.argv[6:]]
def kept(line):
    name = line[7:] if line.startswith("# TYPE ") else line
    return name.startswith(keep) and "_bucket" not in name.split(" ")[0].split("{")[0]
def fetch(port, path):
    end = time.monotonic() + bound
    c = http.client.HTTPConnection("127.0.0.1", int(port), timeout=bound)
    c.request("GET", path, headers={"Accept": "text/plain"})
    r = c.getresponse()
    at = time.time()
    if r.status != 200:
        raise OSError("HTTP %d %s" % (r.status, r.reason))
    body = b""
    while len(body) <= cap:
        if time.monotonic() > end:
            raise OSError("read took longer than %g s" % bound)
        chunk = r.read1(65536) if hasattr(r, "read1") else r.read(65536)
        if not chunk:
            break
        body += chunk
    if len(body) > cap:
        raise OSError("page larger than %d bytes" % cap)
    return at, body.decode("utf-8", "replace")
def read(rnd, i):
    name = "read%d-%d" % (rnd, i)
    print("\n%sbegin %s@@" % (mark, name))
    rc = 0
    try:
        at, text = fetch(*eps[i])
        print("@t %.3f" % at)
        for line in text.splitlines():
            if kept(line):
                print(line)
    except Exception as e:
        print("@error %s: %s" % (type(e).__name__, " ".join(str(e).split())[:300]))
        rc = 1
    print("\n%send %s rc=%d@@" % (mark, name, rc), flush=True)
for rnd in (1, 2):
    if rnd == 2:
        time.sleep(gap)
    for i in range(len(eps)):
        read(rnd, i)
)ICHECK_PY";

// $1: seconds between the rounds; then PORT:PATH...
constexpr std::string_view kHead = R"ICHECK_SH(
ICHECK_MARK=@@icheck:
[ -z "$ICHECK_NONCE" ] || ICHECK_MARK="@@icheck-$ICHECK_NONCE:"
TMO=tree
case $(timeout --version 2>/dev/null) in *coreutils*) TMO=gnu ;; esac
printf '@@icheck:meta version=1 timeout=%s nonce=%s@@\n' "$TMO" "$ICHECK_NONCE"
begin() { printf '\n%sbegin %s@@\n' "$ICHECK_MARK" "$1"; }
end() { printf '\n%send %s rc=%s@@\n' "$ICHECK_MARK" "$1" "$2"; }
bounded() { if [ "$TMO" = gnu ]; then timeout -s KILL "$ICHECK_BUDGET" "$@"; else "$@"; fi; }
keep() {
  while IFS= read -r line; do
    case $line in
      @rc\ *) return "${line#@rc }" ;;
      curl:*) printf '@error %s\n' "$line" ;;
      *_bucket\{*|*_bucket\ *) ;;
      @@KEEP_CASE@@) printf '%s\n' "$line" ;;
    esac
  done
  return 1
}
if command -v python3 >/dev/null 2>&1; then
  begin reader; printf 'python3\n'; end reader 0
  bounded python3 -c ')ICHECK_SH";

constexpr std::string_view kTail =
    R"ICHECK_SH(' "$ICHECK_MARK" "$ICHECK_GAP" "$ICHECK_READ_S" 8388608 "$ICHECK_KEEP" "$@" </dev/null 2>&1
elif command -v curl >/dev/null 2>&1; then
  begin reader; printf 'curl\n'; end reader 0
  for r in 1 2; do
    [ $r = 1 ] || sleep "$ICHECK_GAP"
    i=0
    for ep in "$@"; do
      begin "read$r-$i"
      printf '@t %s\n' "$(date +%s.%N)"
      { bounded curl -sS -f --max-time "$ICHECK_READ_S" --max-filesize 8388608 --proto =http \
          "http://127.0.0.1:${ep%%:*}${ep#*:}" </dev/null 2>&1; printf '\n@rc %s\n' $?; } | keep
      end "read$r-$i" $?
      i=$((i + 1))
    done
  done
else
  begin reader; end reader absent
fi
printf '\n%sdone@@\n' "$ICHECK_MARK"
)ICHECK_SH";

// The kept prefixes as one sh case pattern: vllm:nixl_*|...|agent_* (also after "# TYPE ").
std::string case_pattern() {
  std::string out;
  std::string_view rest = kKeptPrefixes;
  while (!rest.empty()) {
    const auto blank = rest.find(' ');
    const auto word = rest.substr(0, blank);
    if (!out.empty())
      out += '|';
    out += std::string(word) + "*|'# TYPE '" + std::string(word) + "*";
    rest = blank == std::string_view::npos ? std::string_view{} : rest.substr(blank + 1);
  }
  return out;
}

std::string seconds_text(std::chrono::milliseconds d) {
  return std::to_string((d.count() + 999) / 1000);
}

}  // namespace

std::string metrics_reader_script(const std::vector<MetricsEndpoint>& endpoints,
                                  std::chrono::milliseconds interval, const std::string& nonce) {
  std::string head(kHead);
  const std::string placeholder = "@@KEEP_CASE@@";
  head.replace(head.find(placeholder), placeholder.size(), case_pattern());
  std::string script =
      "ICHECK_NONCE=" + nonce + "\nICHECK_GAP=" + seconds_text(interval) +
      "\nICHECK_READ_S=" + std::to_string(kMetricsReadSeconds) +
      "\nICHECK_BUDGET=" + seconds_text(metrics_reader_budget(endpoints.size(), interval)) +
      "\nICHECK_KEEP='" + std::string(kKeptPrefixes) + "'\nset --";
  for (const auto& e : endpoints)
    script += " " + std::to_string(e.port) + ":" + e.path;  // digits and a fixed path: no quoting
  return script + "\n" + head + compact_python(kPython) + std::string(kTail);
}

std::chrono::milliseconds metrics_reader_budget(std::size_t endpoints,
                                                std::chrono::milliseconds interval) {
  const auto reads = std::chrono::seconds(kMetricsReadSeconds) * static_cast<long>(2 * endpoints);
  return interval + std::chrono::duration_cast<std::chrono::milliseconds>(reads) +
         std::chrono::seconds(5);
}

}  // namespace icheck::probe
