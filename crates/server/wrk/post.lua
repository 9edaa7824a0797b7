-- wrk: POST /api/<endpoint> with the puzzles of a file in turn (keep-alive).
--   sudoku serve --addr 127.0.0.1:8080 --threads 1 &
--   grep -v '^#' 17_clue.txt | cut -c1-81 | head -2000 > 17.txt
--   ENDPOINT=solve PUZZLES=17.txt wrk -t1 -c16 -d5s -s crates/server/wrk/post.lua http://127.0.0.1:8080
local endpoint = os.getenv("ENDPOINT") or "solve"
local puzzles = {}
for l in io.lines(os.getenv("PUZZLES") or "17.txt") do
  puzzles[#puzzles + 1] = '{"puzzle":"' .. l .. '"}'
end
local i = 0
request = function()
  i = i % #puzzles + 1
  return wrk.format("POST", "/api/" .. endpoint, {["Content-Type"] = "application/json"}, puzzles[i])
end
