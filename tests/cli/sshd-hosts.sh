# tests/cli/sshd-hosts.sh - sourced by the CLI tests of --hosts (77-flame-hosts,
# 78-history-hosts): real sshd's (Debian's openssh-server) on 127.0.0.1 at
# unprivileged ports, with a throw-away host key and authorized key, as
# build "hosts".  sshd_hosts_check says why they cannot run here (the test
# then skips); sshd_keys makes the keys and sets SSHCMD (the ssh command
# of a hosts file line); start_sshd N EXTRA_SETENV starts host N (its TMPDIR
# $T/hostN/tmp, its XDG_CACHE_HOME $T/hostN/cache) and sets PORT[N] and
# SPID[N]; sshd_below PID lists a sshd's session processes.  Every sshd is
# killed at exit.  HOST_TRAIL is the trail the hosts run (--remote-trail):
# $TRAIL, but under the sanitizers the plain build's when it is the same
# version - the hosts' probes and measurements are the same code that runs
# sanitized on this machine (a ':' slot, other suites), and the sanitized
# run's point here is the trail that drives the hosts.

SSHD=/usr/sbin/sshd
HOST_TRAIL=$TRAIL
if [ -n "${TRAIL_SANITIZED:-}" ] && [ -x "$ROOT/build/trail" ] &&
	[ "$("$ROOT/build/trail" --version 2>&1)" = "$("$TRAIL" --version 2>&1)" ]; then
	HOST_TRAIL=$ROOT/build/trail
fi
declare -A PORT SPID
PIDS=()

# prints why sshd cannot serve as hosts here, nothing when it can
sshd_hosts_check() {
	if [ ! -x "$SSHD" ] || ! have ssh || ! have ssh-keygen || ! have setsid; then
		echo "needs openssh-server, ssh and setsid (scripts/install-deps --test)"
	elif [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
		echo "sshd as root needs its privilege separation directory /run/sshd"
	fi
}

sshd_keys() {
	K=$T/keys
	mkdir -p "$K"
	ssh-keygen -q -t ed25519 -N '' -f "$K/host" && ssh-keygen -q -t ed25519 -N '' -f "$K/id" &&
		cp "$K/id.pub" "$K/authorized_keys" || return 1
	trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
	SSHCMD="ssh -F /dev/null -i $K/id -o UserKnownHostsFile=$K/known -o StrictHostKeyChecking=no"
}

# start_sshd N EXTRA_ENV: host N on a free port; sets PORT[N]
start_sshd() {
	local n=$1 env=$2 port d=$T/host$1 try
	mkdir -p "$d/tmp" "$d/cache"
	for try in 1 2 3 4 5; do
		port=$((20000 + (RANDOM % 20000)))
		cat >"$d/sshd_config" <<-EOF
		Port $port
		ListenAddress 127.0.0.1
		HostKey $K/host
		AuthorizedKeysFile $K/authorized_keys
		PidFile $d/sshd.pid
		StrictModes no
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		PermitRootLogin prohibit-password
		SetEnv XDG_CACHE_HOME=$d/cache TMPDIR=$d/tmp PATH=$PATH $env
		EOF
		"$SSHD" -D -e -f "$d/sshd_config" 2>"$d/log" &
		SPID[$n]=$!
		PIDS+=("${SPID[$n]}")
		for _ in $(seq 50); do
			ssh -F /dev/null -i "$K/id" -o UserKnownHostsFile="$K/known" -o StrictHostKeyChecking=no \
				-o BatchMode=yes -p "$port" 127.0.0.1 true 2>/dev/null && { PORT[$n]=$port; return 0; }
			kill -0 "${SPID[$n]}" 2>/dev/null || break
			sleep 0.1
		done
		kill "${SPID[$n]}" 2>/dev/null || true
	done
	return 1
}

# sshd_below PID: the sshd processes below PID (each session's), not the
# shells and probes they run: those see the connection drop, as when a
# host's sshd dies, and must clean up after themselves
sshd_below() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		[ "$(ps -o comm= -p "$c" 2>/dev/null)" = sshd ] || continue
		echo "$c"
		sshd_below "$c"
	done
}
