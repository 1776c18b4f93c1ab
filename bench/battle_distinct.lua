-- wrk script: POST /api/v1/battle with a different situation every request, so no answer cache
-- can serve it: the battle of bench/battle.lua (infantry firing at armor in a town across a forest
-- edge, Their Finest Hour) with the third unit on another hex, the figures of all three varied,
-- and that unit named after the run (the token bench/load.py passes), the thread and the request
-- count: each body is new for the stack, in this run and every later one.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local spots = {}
for row = 0, 8 do
  for col = 0, 24 do
    if (row + col) % 2 == 0 and not (row == 6 and col == 10) and not (row == 4 and col == 12) then
      spots[#spots + 1] = {row, col}
    end
  end
end

local run = ""
function init(args)
  run = args[1] or ""  -- the bench's token of this run: no body of an earlier run is asked again
end

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_name", "t" .. threads)
end

local n = 0
function request()
  n = n + 1
  local spot = spots[(n % #spots) + 1]
  local body = string.format(
    '{"board":"standard","hexes":[{"row":4,"col":12,"terrain":"town"},{"row":5,"col":9,"terrain":"forest"},' ..
    '{"row":3,"col":11,"terrain":"hill"}],"units":[' ..
    '{"id":"A","side":"allies","type":"infantry","row":6,"col":10,"figures":%d},' ..
    '{"id":"B","side":"axis","type":"armor","row":4,"col":12,"figures":%d},' ..
    '{"id":"C%s%s_%d","side":"axis","type":"infantry","row":%d,"col":%d,"figures":%d}],' ..
    '"attacker":"A","target":"B","card":"their_finest_hour"}',
    1 + n % 4, 1 + math.floor(n / 4) % 3, run, thread_name or "t", n, spot[1], spot[2], 1 + math.floor(n / 12) % 4)
  return wrk.format(nil, nil, nil, body)
end
