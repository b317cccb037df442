-- SPDX-License-Identifier: GPL-2.0-or-later
-- Loaded into the Wireshark GUI by live_gui.sh (-X lua_script:collect.lua):
-- writes down, per frame, the findings the rpcrdma plugin shows, in the two
-- moments a user meets them.
--
--   $RR_GUI_OUT/live.txt   what each frame showed while the live capture
--                          dissected it for the first time
--   $RR_GUI_OUT/final.txt  what a full re-dissection shows once the capture
--                          has ended: the first whole pass over all
--                          $RR_GUI_FRAMES frames that starts after the file
--                          $RR_GUI_OUT/ended exists (the test makes it, then
--                          applies a display filter, which re-dissects every
--                          frame with the taps on)
--   $RR_GUI_OUT/done       written last
--   $RR_GUI_OUT/seen       frames of the current pass, at each tap update
-- Lines: "FRAME RULE SEVERITY", sorted.  Tap listeners see each dissection
-- with taps (the first pass, a rescan, a retap); the packet list's own
-- re-dissections when it repaints rows run without taps.
local out = os.getenv("RR_GUI_OUT")
local total = tonumber(os.getenv("RR_GUI_FRAMES") or "")
if not out or not total then
  error("collect.lua: set RR_GUI_OUT and RR_GUI_FRAMES")
end

local f_rule = Field.new("rpcrdma.rule")
local f_sev = Field.new("rpcrdma.rule.severity")
-- rpcrdma.rule.severity is a number with names; ulb-lint prints the names.
local sev_names = { [0] = "info", [1] = "warning", [2] = "error" }

local live, final = {}, nil
local pass_frames = 0        -- frames of the current pass (first pass or rescan)
local written = false

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local function write_set(name, set)
  local lines = {}
  for line in pairs(set) do lines[#lines + 1] = line end
  table.sort(lines)
  local f = assert(io.open(out .. "/" .. name, "w"))
  for _, line in ipairs(lines) do f:write(line, "\n") end
  f:close()
end

-- Every frame: counts the pass, so that a whole pass is known to be whole.
local frames = Listener.new("frame", nil, false)
function frames.packet(pinfo)
  pass_frames = pass_frames + 1
end
function frames.reset()
  pass_frames = 0
  if not written and exists(out .. "/ended") then
    final = {}
  end
end
function frames.draw()
  -- Called by the GUI's tap timer and after a rescan; mid-pass calls are
  -- told apart by the count.  $RR_GUI_OUT/seen: the frames of the pass so
  -- far, for the test to wait on.
  local s = io.open(out .. "/seen", "w")
  if s then s:write(pass_frames, "\n"); s:close() end
  if final and not written and pass_frames >= total then
    write_set("live.txt", live)
    write_set("final.txt", final)
    written = true
    local f = assert(io.open(out .. "/done", "w"))
    f:write(pass_frames, "\n")
    f:close()
  end
end

-- Frames with findings only: the filter makes Wireshark build the fields.
local findings = Listener.new("frame", "rpcrdma.rule", false)
function findings.packet(pinfo)
  local rules, sevs = { f_rule() }, { f_sev() }
  local set = final or live
  for i, r in ipairs(rules) do
    local sev = sevs[i] and (sev_names[sevs[i].value] or tostring(sevs[i].value)) or "?"
    set[string.format("%d %s %s", pinfo.number, tostring(r.value), sev)] = true
  end
end
