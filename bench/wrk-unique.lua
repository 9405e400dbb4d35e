-- wrk script: wrk-report.lua, plus one header whose value is new on every request:
--   <prefix>-<thread>-<n>
-- e.g. `x-service-session`, so that every request is the first call of its own session.
--
-- Arguments after `--` on wrk's command line: METHOD [BODY_FILE] HEADER PREFIX (wrk-report.lua
-- reads the first two; BODY_FILE is "-" when there is no body). Other headers come with -H.
-- A Lua function per request costs wrk some CPU: used only by the scenarios that need it.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "wrk-report.lua")

local report_init = init
local threads = 0
local header, prefix
local counter = 0

setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

init = function(args)
  report_init(args)
  header = args[3]
  prefix = (args[4] or "wrk") .. "-" .. tostring(thread_number or 0)
  if not header then error("wrk-unique.lua: no header name (argument 3)") end
end

request = function()
  counter = counter + 1
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers[header] = prefix .. "-" .. counter
  return wrk.format(nil, nil, headers)
end
