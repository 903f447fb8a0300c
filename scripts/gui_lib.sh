# shellcheck shell=bash
# Helpers of scripts/gui_check (sourced): an Xvfb display of its own at 1600x1000, the
# GUI started with CLSCOPE_WINDOW_LOG=1 (it prints "window: " lines as the window changes,
# ui/app/window_summary.hpp), real keys and mouse moves (xdotool), and waits on conditions and
# on those log lines, never fixed sleeps. Needs $gui and $work; counts failures in $failures.

fail() {
    echo "FAIL $1" >&2
    failures=$((failures + 1))
}

wait_for() { # SECONDS COMMAND...: until COMMAND succeeds (polled every 0.1 s)
    local limit=$1 i
    shift
    for ((i = 0; i < limit * 10; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

# start_display: Xvfb at 1600x1000 on the first free display of :91..:99, DISPLAY exported.
start_display() {
    local n
    for n in 91 92 93 94 95 96 97 98 99; do
        [[ -e /tmp/.X11-unix/X$n ]] && continue
        Xvfb ":$n" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
        xvfb_pid=$!
        export DISPLAY=:$n
        # Real X windows for xdotool: not an offscreen platform a test shell may have exported.
        export QT_QPA_PLATFORM=xcb
        wait_for 20 xdotool getmouselocation && return 0
        kill "$xvfb_pid" 2>/dev/null || true
    done
    return 1
}

stop_display() {
    [[ -n ${xvfb_pid:-} ]] || return 0
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
    xvfb_pid=
}

# app_start NAME ARGS...: the GUI on $DISPLAY, its stdout and stderr in $work/NAME.log
# ($app_log); $app_pid, $app_window (the main window's X id) once it is mapped.
app_start() {
    app_log=$work/$1.log
    shift
    CLSCOPE_WINDOW_LOG=1 "$gui" "$@" >"$app_log" 2>&1 &
    app_pid=$!
    app_window=$(timeout 60 xdotool search --sync --onlyvisible --name '^clscope' | head -1) ||
        true
    app_mark=0
    [[ -n $app_window ]]
}

# app_quit: Ctrl+Q, then the process is waited for (killed after 20 s).
app_quit() {
    keys ctrl+q
    wait_for 20 bash -c "! kill -0 $app_pid" || kill "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
}

keys() { xdotool windowfocus --sync "$app_window" key --delay 20 "$@"; }

# mark: later waits look only at the log lines written after this point.
mark() { app_mark=$(wc -l <"$app_log"); }
since_mark() { tail -n +$((app_mark + 1)) "$app_log"; }

# wait_line SECONDS PATTERN: a log line after the mark matches PATTERN (grep -E); fails at once
# when the GUI has exited.
wait_line() {
    local limit=$1 pattern=$2 i
    for ((i = 0; i < limit * 10; i++)); do
        since_mark | grep -Eq -- "$pattern" && return 0
        kill -0 "$app_pid" 2>/dev/null || { since_mark | grep -Eq -- "$pattern"; return; }
        sleep 0.1
    done
    return 1
}

# after EVENT LINE: the summary line that starts with LINE (grep pattern) printed after the last
# "window: EVENT" line since the mark, without "window: "; after_field: without "LINE: " either.
after() {
    since_mark | awk -v e="window: $1" 'index($0, e) == 1 { b = ""; on = 1 } on { b = b $0 "\n" }
        END { printf "%s", b }' | grep -m1 "^window: $2" | sed 's/^window: //' || true
}
after_field() { after "$1" "$2: " | sed "s/^$2: //"; }

type_into_dialog() { # TITLE PATH: the file dialog named TITLE gets PATH and Return
    local dialog
    wait_for 20 xdotool search --onlyvisible --name "$1" || return 1
    dialog=$(xdotool search --onlyvisible --name "$1" | head -1)
    xdotool windowfocus --sync "$dialog" key ctrl+a
    xdotool type --delay 5 "$2"
    xdotool key Return
}

# export_all FOLDER EXPECTED: File ▸ Export all fresh results… (Alt+F, A) into FOLDER; EXPECTED
# files must be written, each with the command line that reproduces it.
export_all() {
    local folder=$1 expected=$2 listed
    mkdir -p "$folder"
    keys alt+f a
    if ! type_into_dialog 'Export all fresh results' "$folder" ||
        ! wait_for 20 bash -c "(( \$(ls -A '$folder' | wc -l) >= $expected ))"; then
        fail "$app_log: export all: $(ls -A "$folder" | wc -l) of $expected files in $folder"
        return
    fi
    listed=$(/usr/bin/python3 - "$folder" "$expected" <<'PY'
import os, sys, h5py
folder, expected = sys.argv[1], int(sys.argv[2])
names = sorted(os.listdir(folder))
for name in names:
    path = os.path.join(folder, name)
    if name.endswith(".h5"):
        ok = "command_line" in h5py.File(path, "r").attrs
    else:
        ok = b"command_line" in open(path, "rb").read()
    assert ok, name + " has no command_line"
assert len(names) == expected, names
print(", ".join(names))
PY
    ) || { fail "$app_log: the tabs exported into $folder"; return; }
    echo "     exported $listed"
}
