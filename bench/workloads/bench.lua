-- bench.lua - the Lua workload of bench/overhead.sh: the interpreter's
-- dispatch loop, table access, the garbage collector, string building and
-- pattern matching, and table.sort with a Lua comparator.
-- usage: lua bench.lua [SCALE]   (prints one checksum line)
local scale = tonumber(arg and arg[1]) or 10

-- recursive calls and integer arithmetic
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

-- objects as tables with methods (metatables), allocation-heavy
local Vec = {}
Vec.__index = Vec
function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
function Vec.__add(a, b) return Vec.new(a.x + b.x, a.y + b.y) end
function Vec:scale(k) return Vec.new(self.x * k, self.y * k) end
function Vec:dot(o) return self.x * o.x + self.y * o.y end

local function particles(n, steps)
  local ps, vs = {}, {}
  for i = 1, n do
    ps[i] = Vec.new(i % 17, i % 23)
    vs[i] = Vec.new((i % 7) - 3, (i % 5) - 2)
  end
  local energy = 0
  for _ = 1, steps do
    for i = 1, n do
      local p = ps[i] + vs[i]:scale(0.5)
      if p.x < 0 or p.x > 100 then vs[i] = Vec.new(-vs[i].x, vs[i].y) end
      if p.y < 0 or p.y > 100 then vs[i] = Vec.new(vs[i].x, -vs[i].y) end
      ps[i] = p
      energy = energy + vs[i]:dot(vs[i])
    end
  end
  return math.floor(energy)
end

-- string building, formatting and patterns
local function text(n)
  local parts = {}
  for i = 1, n do
    parts[#parts + 1] = string.format("key%d=%x;", i * 7919 % 10007, i * 31)
  end
  local s = table.concat(parts)
  local sum, count = 0, 0
  for k, v in s:gmatch("key(%d+)=(%x+);") do
    sum = sum + tonumber(k) + tonumber(v, 16)
    count = count + 1
  end
  local replaced = s:gsub("key(%d)", "K%1")
  return sum + count + #replaced
end

-- sorting records with a Lua comparator
local function sorting(n)
  local seed = 42
  local records = {}
  for i = 1, n do
    seed = (seed * 1103515245 + 12345) % 2147483648
    records[i] = {id = i, score = seed % 1000, name = "r" .. (seed % 9973)}
  end
  table.sort(records, function(a, b)
    if a.score ~= b.score then return a.score < b.score end
    return a.name < b.name
  end)
  local check = 0
  for i = 1, n, 97 do check = (check * 31 + records[i].id) % 1000000007 end
  return check
end

local total = fib(20 + math.min(scale // 4, 6))
total = total + particles(200 * scale, 40)
total = total + text(4000 * scale)
total = total + sorting(8000 * scale)
print("bench.lua " .. total)
