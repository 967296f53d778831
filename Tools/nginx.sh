# Sourced by the remote-source benchmarks: an nginx of their own in a scratch folder.
# start_nginx WORK LINE...: writes WORK/nginx.conf (one worker, its pid and error log in WORK,
# the access-log format `bench`: status and body bytes) with LINEs inside its `http` block,
# and starts it; WORK/nginx.pid is what to kill.
start_nginx() {
  local work=$1; shift
  {
    printf 'worker_processes 1;\npid %s/nginx.pid;\nerror_log %s/error.log;\n' "$work" "$work"
    printf 'events { worker_connections 512; }\nhttp {\n'
    printf '  log_format bench '"'"'$status $body_bytes_sent'"'"';\n'
    printf '  %s\n' "$@"
    printf '}\n'
  } > "$work/nginx.conf"
  nginx -c "$work/nginx.conf" -p "$work"
}
