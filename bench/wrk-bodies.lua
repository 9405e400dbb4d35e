-- wrk script: wrk-report.lua, with a different body on every request, taken in turn from a file
-- holding one body per line (each thread starts at its own offset, so threads do not send the
-- same bodies at once).
--
-- Arguments after `--` on wrk's command line: METHOD BODIES_FILE. Headers come with -H.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "wrk-report.lua")

local threads = 0
local bodies = {}
local next_index = 1

setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

init = function(args)
  wrk.method = args[1] or "POST"
  for line in io.lines(args[2]) do
    if line ~= "" then bodies[#bodies + 1] = line end
  end
  if #bodies == 0 then error("wrk-bodies.lua: no bodies in " .. tostring(args[2])) end
  next_index = (((thread_number or 1) - 1) * 7919) % #bodies + 1
end

request = function()
  local body = bodies[next_index]
  next_index = next_index % #bodies + 1
  return wrk.format(nil, nil, nil, body)
end
