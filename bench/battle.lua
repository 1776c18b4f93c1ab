-- wrk script: POST one realistic battle (infantry firing at armor in a town across a forest edge).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[{"board": "standard",
 "hexes": [{"row": 4, "col": 12, "terrain": "town"}, {"row": 5, "col": 9, "terrain": "forest"},
           {"row": 3, "col": 11, "terrain": "hill"}],
 "units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
           {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 2},
           {"id": "C", "side": "axis", "type": "infantry", "row": 2, "col": 12, "figures": 3}],
 "attacker": "A", "target": "B", "card": "their_finest_hour"}]]
