-- wrk script: valid quote posts, each thread stopping after its share of MAX_REQUESTS, then
-- one machine-readable line with the figures bench.sh reports.
local max_per_thread = tonumber(os.getenv("BENCH_MAX_PER_THREAD") or "0")
local sent = 0

wrk.method = "POST"
wrk.path = "/api/quote-requests"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "bench"
wrk.body = '{"product":"family","email":"bench.user@example.com"}'

function response(status, headers, body)
  sent = sent + 1
  if max_per_thread > 0 and sent >= max_per_thread then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout
  io.write(string.format("BENCH requests=%d failed=%d seconds=%.3f rps=%.0f p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, failed, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
