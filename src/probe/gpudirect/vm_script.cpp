#include "probe/gpudirect/vm_script.hpp"

namespace icheck::probe {

// DMI names the platform (hypervisors fill it with their own name); the CPU flag is what the
// hypervisor sets for its guests on x86. Only files are read, only the first flags line.
namespace {

constexpr std::string_view kVmFragment = R"ICHECK_SH(
begin vm_markers
for f in sys_vendor product_name; do
  [ -r "/sys/class/dmi/id/$f" ] && IFS= read -r v < "/sys/class/dmi/id/$f" && printf '%s %s\n' "$f" "$v"
done
if [ -r /proc/cpuinfo ]; then
  while IFS= read -r line; do
    case $line in
      flags*:*)
        case " ${line#*:} " in
          *" hypervisor "*) printf 'cpu_flag hypervisor\n' ;;
          *) printf 'cpu_flag none\n' ;;
        esac
        break ;;
    esac
  done < /proc/cpuinfo
fi
end vm_markers 0
)ICHECK_SH";

}  // namespace

std::string_view vm_probe_fragment() {
  return kVmFragment;
}

}  // namespace icheck::probe
