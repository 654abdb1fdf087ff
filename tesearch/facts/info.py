"""Everything ``tesearch info`` reports about a network and an exchange."""

from __future__ import annotations

from collections import Counter

from tesearch.facts.instance import instance
from tesearch.networks.families import Network
from tesearch.running.terms import Exchange
from tesearch.networks.words import canonical_word, to_letters, word_text


def network_info(network: Network, exchange: Exchange | str = Exchange.TOTAL) -> dict:
    """Everything ``tesearch info`` reports, as a JSON-ready dict (see :func:`info_text`)."""
    facts = instance(network, exchange)
    exchange, cg, target_set = facts.exchange, facts.cg, facts.targets
    rotation, bounds = facts.rotation, facts.bounds
    info = {
        "network": network.spec,
        "family": network.family,
        "exchange": exchange.value,
        "generators": network.generators_json(),
        "nodes": cg.order,
        "degree": cg.degree,
        "diameter": cg.diameter,
        "distance_distribution": cg.distance_distribution,
        "network_status": cg.status,
        "targets": int(len(target_set)),
        "target_distance_sum": bounds.target_letters,
        "lower_bound": bounds.counting,
        "letter_bound": bounds.letter.value,
        "letter_bound_exact": bounds.letter.exact,
        "letter_bound_upper": bounds.letter.upper,
        "letter_bound_method": bounds.letter.method,
        "singleport_bound": bounds.singleport,
        "best_bound": bounds.best,
        "binding_bound": bounds.binding,
        "blanks_at_best": bounds.blanks_at_best,
        "rotation": None,
        "orbit_sizes": {},
        "exceptional": [],
        "exceptional_text": [],
        "exceptional_letters": 0,
    }
    if rotation is not None:
        sizes = rotation.orbit_size[target_set]
        info["rotation"] = list(rotation.cycle)
        # orbits of each size (not elements)
        info["orbit_sizes"] = {str(k): v // k for k, v in sorted(Counter(sizes.tolist()).items())}
        exc = rotation.exceptional(target_set)
        words = [to_letters(cg, canonical_word(cg, g)) for g in exc]
        info["exceptional"] = [list(w) for w in words]
        info["exceptional_text"] = [word_text(w) for w in words]
        info["exceptional_letters"] = int(cg.dist[exc].sum())
    return info


def info_text(info: dict) -> str:
    """What :func:`network_info` found, for people."""
    lines = [
        f"network        {info['network']} ({info['family']}), exchange {info['exchange']}",
        f"letters        {' '.join(info['generators'])}",
        f"nodes          {info['nodes']}",
        f"degree         {info['degree']}",
        f"diameter       {info['diameter']}",
        f"distances      {info['distance_distribution']}  (count at distance 0, 1, ...)",
        f"status         {info['network_status']}",
        f"targets        {info['targets']} elements, {info['target_distance_sum']} letters",
        f"bounds         counting {info['lower_bound']}; per-letter {info['letter_bound']}"
        f"{'' if info['letter_bound_exact'] else ' (lower estimate; achievable ' + str(info['letter_bound_upper']) + ')'}"
        f"; single-port {info['singleport_bound']}",
        f"best bound     {info['best_bound']} ({info['binding_bound']} binds; {info['blanks_at_best']} blank cells at that width)",
    ]
    if info["rotation"] is None:
        lines.append("rotation       none found")
    else:
        cyc = info["rotation"]
        lines.append(f"rotation       {' -> '.join(cyc)} -> {cyc[0]}")
        lines.append("orbits         " + ", ".join(f"{n} of size {k}" for k, n in info["orbit_sizes"].items()))
        lines.append(f"exceptional    {len(info['exceptional'])} elements, {info['exceptional_letters']} letters")
        for w in info["exceptional_text"][:60]:
            lines.append(f"  {w}")
        if len(info["exceptional_text"]) > 60:
            lines.append(f"  ... {len(info['exceptional_text']) - 60} more (see --json)")
    return "\n".join(lines)
