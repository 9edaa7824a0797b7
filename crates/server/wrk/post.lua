-- wrk: POST /api/<endpoint> with the puzzles of a file in turn (keep-alive).
--   sudoku serve --addr 127.0.0.1:8080 --threads 1 &
--   grep -v '^#' 17_clue.txt | cut -c1-81 | head -2000 > 17.txt
--   ENDPOINT=solve PUZZLES=17.txt wrk -t1 -c16 -d5s -s crates/server/wrk/post.lua http://127.0.0.1:8080
-- The requests are formatted once, up front, so the load generator spends
-- its time sending them rather than building them.
local endpoint = os.getenv("ENDPOINT") or "solve"
local requests = {}
for l in io.lines(os.getenv("PUZZLES") or "17.txt") do
  requests[#requests + 1] = wrk.format("POST", "/api/" .. endpoint,
    {["Content-Type"] = "application/json"}, '{"puzzle":"' .. l .. '"}')
end
local i = 0
request = function()
  i = i % #requests + 1
  return requests[i]
end
