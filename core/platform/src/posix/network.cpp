// IPv4 interfaces from getifaddrs(3), and the default route from Linux's
// /proc/net/route (elsewhere no interface is marked as the default one and
// the first non-loopback interface is used instead).
#include "attn/platform/network.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace attn::platform {

std::string default_route_interface(const std::string& proc_net_route) {
  std::istringstream in(proc_net_route);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string iface, destination;
    if (row >> iface >> destination && destination == "00000000") return iface;
  }
  return "";
}

namespace {

std::string read_route_table() {
  std::ifstream in("/proc/net/route");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<NetworkInterface> ipv4_interfaces() {
  std::vector<NetworkInterface> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  const std::string route_iface = default_route_interface(read_route_table());
  for (const ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || !(a->ifa_flags & IFF_UP)) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in4 = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    if (!inet_ntop(AF_INET, &in4->sin_addr, text, sizeof text)) continue;
    NetworkInterface n;
    n.name = a->ifa_name ? a->ifa_name : "";
    n.address = text;
    n.loopback = (a->ifa_flags & IFF_LOOPBACK) != 0;
    n.default_route = !route_iface.empty() && n.name == route_iface;
    out.push_back(std::move(n));
  }
  freeifaddrs(list);
  std::stable_sort(out.begin(), out.end(), [](const NetworkInterface& a, const NetworkInterface& b) {
    if (a.default_route != b.default_route) return a.default_route;
    return a.loopback < b.loopback;
  });
  return out;
}

std::optional<NetworkInterface> default_lan_interface() {
  for (const NetworkInterface& n : ipv4_interfaces())
    if (!n.loopback) return n;
  return std::nullopt;
}

}  // namespace attn::platform
