-- wrk script: valid quote posts, each thread stopping after its share of MAX_REQUESTS, then
-- one machine-readable line with the figures bench.sh reports.
--
-- With BENCH_CLIENTS=N (and BENCH_THREADS, wrk's -t), every request comes from another client:
-- an X-Forwarded-For (the server trusts its loopback peer), the threads taking turns through N
-- addresses, so each is seen again only after N requests. Each address is the first of a /24 of
-- its own (11.0.0.1, 11.0.1.1, ...): the server also counts a client's /24, so clients sharing
-- one would spend that network's burst together and most posts would be refused.
local max_per_thread = tonumber(os.getenv("BENCH_MAX_PER_THREAD") or "0")
local clients = tonumber(os.getenv("BENCH_CLIENTS") or "0")
local threads = tonumber(os.getenv("BENCH_THREADS") or "1")
local sent = 0

local started = 0
function setup(thread)
  thread:set("thread_index", started)
  started = started + 1
end

wrk.method = "POST"
wrk.path = "/api/quote-requests"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "bench"
wrk.body = '{"product":"family","email":"bench.user@example.com"}'
-- The form token a page of the site gives a person's browser (bench.sh's `form_cookie`), so
-- the posts are leads rather than spam.
wrk.headers["Cookie"] = os.getenv("BENCH_FORM_COOKIE")

-- A token serves one lead: each 201 gives a fresh one (as a browser keeps it), which the
-- thread's next request sends; until one is back, a connection's post repeats the last (held as
-- spam, `reused_token`: a handful a run, one per connection at its start).
local fresh_tokens = {}

local next_client = nil
function request()
  if #fresh_tokens > 0 then
    wrk.headers["Cookie"] = table.remove(fresh_tokens)
  end
  if clients > 0 then
    next_client = next_client or thread_index
    local i = next_client
    next_client = (next_client + threads) % clients
    wrk.headers["X-Forwarded-For"] = string.format("%d.%d.%d.1",
      11 + math.floor(i / 65536) % 200, math.floor(i / 256) % 256, i % 256)
  end
  return wrk.format()
end

function response(status, headers, body)
  local cookie = headers["set-cookie"] or headers["Set-Cookie"]
  local token = cookie and cookie:match("^(form_token=[^;]*)")
  if token then
    fresh_tokens[#fresh_tokens + 1] = token
  end
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
