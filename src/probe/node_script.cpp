#include "probe/node_script.hpp"

#include "dynamo/transport_vars.hpp"
#include "probe/fabric/link_script.hpp"
#include "probe/gpudirect/kconfig_script.hpp"
#include "probe/gpudirect/vm_script.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/script_template.hpp"
#include "probe/stack/stack_script.hpp"
#include "probe/ucx/ucx_caps_script.hpp"
#include "probe/ucx/ucx_lib_script.hpp"

#include <algorithm>
#include <string>

namespace icheck::probe {

// Section grammar (parsed by split_sections), after a first line
// "@@icheck:meta version=1 timeout=gnu|tree nonce=<N>@@" and with M = "@@icheck-<N>:" (or
// "@@icheck:" when there is no nonce):
//   <M>begin <name>@@
//   ...body: the file or the tool's stdout+stderr...
//   <M>end <name> rc=<n>|rc=absent@@
// and a final "<M>done@@". rc=absent: the command is not in PATH or the file is missing.
// Tools are bounded by GNU `timeout -s KILL` or, elsewhere (busybox, no timeout), by a killer
// that kills the tool and its descendants; a timed-out tool ends with rc 137 (124/143 also read
// as timed out).
// Files are read with the `read` builtin rather than cat so a tool-less image costs no forks.
namespace {

constexpr std::string_view kNodeTemplate = R"ICHECK_SH(
T=8
# Section markers carry this run's nonce (ICHECK_NONCE, put first by the plugin, see with_nonce;
# else the kernel's random UUID), named in the meta line before anything read from the pod is
# printed: a value, file or tool output holding marker text then neither ends nor starts a section.
ICHECK_NONCE=${ICHECK_NONCE:-}
[ -n "$ICHECK_NONCE" ] || { IFS= read -r ICHECK_NONCE < /proc/sys/kernel/random/uuid; } 2>/dev/null
case $ICHECK_NONCE in *[!0-9A-Za-z-]*) ICHECK_NONCE= ;; esac
ICHECK_MARK=@@icheck:
[ -z "$ICHECK_NONCE" ] || ICHECK_MARK="@@icheck-$ICHECK_NONCE:"
begin() { printf '\n%sbegin %s@@\n' "$ICHECK_MARK" "$1"; }
end() { printf '\n%send %s rc=%s@@\n' "$ICHECK_MARK" "$1" "$2"; }

# Prints a file without spawning cat; lines only (files here are short text).
show_file() {
  while IFS= read -r line || [ -n "$line" ]; do printf '%s\n' "$line"; done < "$1"
}

# section NAME FILE: the whole file, or rc=absent.
file_section() {
  begin "$1"
  if [ -r "$2" ]; then show_file "$2"; end "$1" 0; else end "$1" absent; fi
}

# GNU timeout kills the tool's whole process group. Elsewhere (busybox, no timeout) there is no
# job control without a tty, so the killer walks /proc for the tool's descendants and kills
# them all: children of shell-script tools (ibdev2netdev) would otherwise keep the
# output pipe, and so the exec, open past the deadline.
TMO=tree
case $(timeout --version 2>/dev/null) in *coreutils*) TMO=gnu ;; esac

# kill_tree PID [SPARE]: SPARE (the caller itself) and what only it started are left alone.
# PID is stopped first and killed last: bounded() wakes up when PID ends and then kills this
# killer, so a PID that died first left the rest of its tree running (a tool's child holding the
# output open to its own end), and a PID still running when its child died could exit 0 first.
kill_tree() {
  root=$1
  kill -STOP "$root" 2>/dev/null
  tree=" $1 "
  spare=${2:-}
  grown=1
  while [ $grown = 1 ]; do
    grown=0
    for st in /proc/[0-9]*/stat; do
      IFS= read -r line < "$st" 2>/dev/null || continue
      p=${st#/proc/}
      p=${p%/stat}
      set -- ${line##*) }
      case $tree in *" $p "*) continue ;; esac
      [ "$p" = "$spare" ] && continue
      case $tree in *" $2 "*) tree="$tree$p "; grown=1 ;; esac
    done
  done
  rest=${tree# $root }
  [ -z "$rest" ] || kill -9 $rest
  kill -9 "$root"
}

bounded() {
  if [ "$TMO" = gnu ]; then
    timeout -s KILL "$T" "$@"
    return $?
  fi
  "$@" &
  pid=$!
  ( sleep "$T"; kill_tree "$pid" ) >/dev/null 2>&1 &
  killer=$!
  wait "$pid"
  rc=$?
  kill -9 "$killer" >/dev/null 2>&1
  return $rc
}

# tool_section NAME CMD ARGS...: the tool's stdout+stderr and its exit status.
tool_section() {
  name=$1
  shift
  begin "$name"
  if command -v "$1" >/dev/null 2>&1; then
    bounded "$@" </dev/null 2>&1
    end "$name" $?
  else
    end "$name" absent
  fi
}

printf '@@icheck:meta version=1 timeout=%s nonce=%s@@\n' "$TMO" "$ICHECK_NONCE"

# The probe's own deadline: a real kubelet keeps an exec's process running when kubectl goes
# away (killed, or its --timeout), so ICHECK_BUDGET seconds after the start (the plugin puts
# the line that sets it first, see with_deadline) a watchdog kills this shell and everything
# it started. It sleeps in 1 s steps, so once the probe is done and kills it, no sleep is left
# behind for longer than a second; it also ends when this shell is gone.
WD=
if [ -n "${ICHECK_BUDGET:-}" ]; then
  (
    i=0
    while [ "$i" -lt "$ICHECK_BUDGET" ]; do
      sleep 1
      kill -0 $$ 2>/dev/null || exit 0
      i=$((i + 1))
    done
    IFS=' ' read -r me _ < /proc/self/stat
    kill_tree $$ "$me"
  ) </dev/null >/dev/null 2>&1 &
  WD=$!
fi

begin hostname
if [ -r /proc/sys/kernel/hostname ]; then show_file /proc/sys/kernel/hostname; else hostname 2>&1; fi
end hostname $?
file_section kernel /proc/sys/kernel/osrelease

begin sysfs_ib
if [ -d /sys/class/infiniband ]; then
  for d in /sys/class/infiniband/*; do
    [ -e "$d" ] || continue
    n=${d##*/}
    for f in hca_type fw_ver board_id node_guid node_type; do
      [ -r "$d/$f" ] && { printf '==> %s/%s <==\n' "$n" "$f"; show_file "$d/$f"; }
    done
    for p in "$d"/ports/*; do
      [ -d "$p" ] || continue
      for f in state phys_state rate link_layer lid sm_lid pkeys/0; do
        [ -r "$p/$f" ] && { printf '==> %s/ports/%s/%s <==\n' "$n" "${p##*/}" "$f"; show_file "$p/$f"; }
      done
    done
    if [ -e "$d/device" ]; then
      printf '==> %s/device <==\n%s\n' "$n" "$(cd -P "$d/device" 2>/dev/null && pwd -P)"
      [ -r "$d/device/numa_node" ] && { printf '==> %s/device/numa_node <==\n' "$n"; show_file "$d/device/numa_node"; }
      if [ -d "$d/device/net" ]; then
        printf '==> %s/device/net <==\n' "$n"
        for i in "$d"/device/net/*; do [ -e "$i" ] && printf '%s\n' "${i##*/}"; done
        for i in "$d"/device/net/*; do
          [ -r "$i/operstate" ] && { printf '==> %s/device/net/%s/operstate <==\n' "$n" "${i##*/}"; show_file "$i/operstate"; }
        done
      fi
    fi
  done
  end sysfs_ib 0
else
  end sysfs_ib absent
fi

begin dev_infiniband
if [ -d /dev/infiniband ]; then
  for e in /dev/infiniband/*; do [ -e "$e" ] && printf '%s\n' "${e##*/}"; done
  end dev_infiniband 0
else
  end dev_infiniband absent
fi

# Which HCAs the pod can open: each uverbsN in sysfs names its HCA (the pod's own nodes are in
# dev_infiniband above).
begin uverbs_ibdev
if [ -d /sys/class/infiniband_verbs ]; then
  for u in /sys/class/infiniband_verbs/uverbs*; do
    [ -r "$u/ibdev" ] && IFS= read -r v < "$u/ibdev" && printf '%s %s\n' "${u##*/}" "$v"
  done
  end uverbs_ibdev 0
else
  end uverbs_ibdev absent
fi

# RoCE addressing: each populated GID of an Ethernet port as MLNX show_gids prints it, less its
# IPv4 column: "dev port index gid v1|v2 netdev" (an unreadable type or netdev prints "-"), then
# "dev port scanned N". A GID table has 256 entries, nearly all zeros, and the kernel fills the
# lowest free one, so the walk stops after 16 unused entries in a row (reading all 256 of
# 8 ports cost ~100 ms); N is the last index read.
ZERO_GID=0000:0000:0000:0000:0000:0000:0000:0000
begin roce_gids
for p in /sys/class/infiniband/*/ports/*; do
  ll=
  [ -r "$p/link_layer" ] && IFS= read -r ll < "$p/link_layer"
  [ "$ll" = Ethernet ] || continue
  d=${p%/ports/*}
  i=0
  gap=0
  while [ $i -lt 256 ] && [ $gap -lt 16 ] && IFS= read -r gid 2>/dev/null < "$p/gids/$i"; do
    if [ "$gid" = "$ZERO_GID" ] || [ -z "$gid" ]; then
      gap=$((gap + 1))
    else
      gap=0
      IFS= read -r nd 2>/dev/null < "$p/gid_attrs/ndevs/$i" || nd=-
      IFS= read -r ty 2>/dev/null < "$p/gid_attrs/types/$i" || ty=
      case $ty in *v2) ty=v2 ;; *v1) ty=v1 ;; *) ty=- ;; esac
      printf '%s %s %s %s %s %s\n' "${d##*/}" "${p##*/}" "$i" "$gid" "$ty" "${nd:--}"
    fi
    i=$((i + 1))
  done
  printf '%s %s scanned %s\n' "${d##*/}" "${p##*/}" $((i - 1))
done
end roce_gids 0

# The pod's network namespace: /sys/class/net lists only its own netdevs.
begin pod_netdevs
if [ -d /sys/class/net ]; then
  for i in /sys/class/net/*; do [ -e "$i" ] && printf '%s\n' "${i##*/}"; done
  end pod_netdevs 0
else
  end pod_netdevs absent
fi

# The pod's own addresses, to tell its netdev from a host netdev of the same name (eth0 on both
# sides) when a GID names one: "inet A.B.C.D" per local IPv4 address (/proc/net/fib_trie, whose
# "/32 host LOCAL" leaves are the namespace's addresses), "inet6 NAME HEX" (/proc/net/if_inet6),
# "link NAME MAC"; "inet unread" / "inet6 unread" when the file is missing.
begin pod_addrs
if [ -r /proc/net/fib_trie ]; then
  a=
  while IFS= read -r line; do
    case $line in
      *'|-- '*) a=${line##*-- } ;;
      *'/32 host LOCAL'*) printf 'inet %s\n' "$a" ;;
    esac
  done < /proc/net/fib_trie
else
  printf 'inet unread\n'
fi
if [ -r /proc/net/if_inet6 ]; then
  while read -r addr _ _ _ _ name; do printf 'inet6 %s %s\n' "$name" "$addr"; done < /proc/net/if_inet6
else
  printf 'inet6 unread\n'
fi
for i in /sys/class/net/*; do
  [ -r "$i/address" ] && IFS= read -r mac < "$i/address" && printf 'link %s %s\n' "${i##*/}" "$mac"
done
end pod_addrs 0

file_section proc_limits /proc/self/limits

begin proc_status
if [ -r /proc/self/status ]; then
  while IFS= read -r line; do case $line in Cap*|Uid:*) printf '%s\n' "$line" ;; esac; done < /proc/self/status
  end proc_status 0
else
  end proc_status absent
fi

begin ulimit_l
ulimit -l 2>&1
end ulimit_l $?

file_section memory_peers /sys/kernel/mm/memory_peers/nv_mem/version

begin sys_module
for m in nvidia_peermem nv_peer_mem gdrdrv nvidia ib_core ib_uverbs mlx5_ib; do
  if [ -d "/sys/module/$m" ]; then
    v=
    [ -r "/sys/module/$m/version" ] && IFS= read -r v < "/sys/module/$m/version"
    printf '%s %s\n' "$m" "$v"
  fi
done
end sys_module 0

begin proc_modules
if [ -r /proc/modules ]; then
  while IFS= read -r line; do
    case $line in nvidia*|nv_peer_mem*|gdrdrv*|ib_*|mlx*|rdma*|efa*) printf '%s\n' "$line" ;; esac
  done < /proc/modules
  end proc_modules 0
else
  end proc_modules absent
fi

file_section nvidia_driver /proc/driver/nvidia/version

begin dev_gdrdrv
if [ -e /dev/gdrdrv ]; then echo present; end dev_gdrdrv 0; else end dev_gdrdrv absent; fi

begin proc_devices
if [ -r /proc/devices ]; then
  while IFS= read -r line; do case $line in *gdrdrv*) printf '%s\n' "$line" ;; esac; done < /proc/devices
  end proc_devices 0
else
  end proc_devices absent
fi

# Names come from env's lines, values from the shell itself, each printed as "BYTES NAME=VALUE":
# a value holding a newline then stays one value, and a line inside it that looks like
# NAME=VALUE names no variable (unset), so it never passes for a second one.
begin transport_env
if command -v env >/dev/null 2>&1; then
  env | while IFS= read -r line; do
    case $line in @@TRANSPORT_ENV@@) ;; *) continue ;; esac
    name=${line%%=*}
    case $name in *[!A-Za-z0-9_]*) continue ;; esac
    eval "[ -n \"\${$name+x}\" ]" || continue
    eval "value=\${$name}"
    LC_ALL=C
    printf '%s %s=%s\n' "${#value}" "$name" "$value"
  done
  end transport_env 0
else
  end transport_env absent
fi

tool_section ibstat ibstat
tool_section ibv_devinfo ibv_devinfo
tool_section ibv_devices ibv_devices
tool_section ibdev2netdev ibdev2netdev
tool_section lsmod lsmod
tool_section nvidia_smi_list nvidia-smi -L
tool_section nvidia_smi_topo nvidia-smi topo -m
tool_section nvidia_smi_nvlink nvidia-smi nvlink -s
tool_section ucx_info_v ucx_info -v
tool_section ucx_info_d ucx_info -d

printf '\n%sdone@@\n' "$ICHECK_MARK"
[ -z "$WD" ] || { kill -9 "$WD"; wait "$WD"; } 2>/dev/null || :
)ICHECK_SH";

}  // namespace

// The env filter comes from dynamo/transport_vars.hpp, the one list of transport variables; the
// platform sections (node_script_platform.cpp) and the ucx layer's (probe/ucx/ucx_caps_script.hpp)
// run before the final marker.
std::string with_nonce(std::string_view script, std::string_view nonce) {
  return "ICHECK_NONCE=" + std::string(nonce) + "\n" + std::string(script);
}

std::string with_deadline(std::string_view script, std::chrono::milliseconds budget) {
  const auto seconds = std::max<long long>(1, (budget.count() + 999) / 1000);
  return "ICHECK_BUDGET=" + std::to_string(seconds) + "\n" + std::string(script);
}

std::string_view node_probe_script() {
  static const std::string script = [] {
    auto out =
        fill_env_patterns(kNodeTemplate, "@@TRANSPORT_ENV@@", dynamo::node_probe_env_patterns());
    // The KV stack's versions and the whole environment (known trouble) before the one fragment
    // that may take long (ucx_lib asks UCX itself through python3, 20 s at most): a probe the
    // pod's deadline stops there still has every cheap fact.
    for (auto fragment :
         {node_platform_fragment(), ucx_caps_fragment(), link_probe_fragment(), vm_probe_fragment(),
          kernel_config_fragment(), stack_probe_script(), ucx_lib_fragment()})
      out = insert_before_done(out, fragment);
    return out;
  }();
  return script;
}

}  // namespace icheck::probe
