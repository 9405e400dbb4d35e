-- wrk script: prints one machine-readable line when the run is done.
--
--   WRK_RESULT {"requests":...,"duration_us":...,"p50_us":...,"p99_us":...,"errors":{...}}
--
-- `errors.status` is wrk's own count of responses with a status above 399;
-- the runner also checks the exact status of each target before and after the
-- load, so a target answering 3xx is caught as well.
-- Headers are passed on the command line with -H, not set here. The method and the body come
-- as arguments after `--` on wrk's command line: METHOD [BODY_FILE] (a file holding the body;
-- "-" or nothing: no body). Without arguments: GET, no body.

init = function(args)
  if args[1] and args[1] ~= "" then wrk.method = args[1] end
  if args[2] and args[2] ~= "-" then
    local file = assert(io.open(args[2], "rb"))
    wrk.body = file:read("*a")
    file:close()
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,' ..
    '"mean_us":%.2f,"stdev_us":%.2f,"min_us":%.0f,"max_us":%.0f,' ..
    '"p50_us":%.0f,"p90_us":%.0f,"p99_us":%.0f,"p999_us":%.0f,' ..
    '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency.mean, latency.stdev, latency.min, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    e.connect, e.read, e.write, e.status, e.timeout
  ))
end
