#!/usr/bin/env python3
"""Writes Sources/TerrapinViews/SymbolMap.swift: the SF Symbols names Image(systemName:) knows,
each with the Material Icons glyph that draws it (Debian fonts-material-design-icons-iconfont,
Apache-2.0) and its code point, taken from the package's scss variables. Also the synonyms that
unknown names are matched against ("tent" -> camping words before spelling).

Each entry below is one SF Symbols base name:
  variants: every entry gives NAME; then
            "f"  NAME.fill
            "c"  NAME.circle (the glyph in a ring) and NAME.circle.fill (cut out of a disc)
            "o"  nothing more
  fill:     the Material glyph for NAME.fill (and for NAME when no outline glyph is given)
  outline:  the Material glyph for the unfilled NAME and NAME.circle, or None
  words:    what the symbol means, for suggestions

Run after changing the table: python3 Tools/symbol-map.py
"""
import os
import re
import sys

SCSS = "/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss"
OUT = os.path.join(os.path.dirname(__file__), "..", "Sources", "TerrapinViews", "SymbolMap.swift")

# (SF base name, variants, fill glyph, outline glyph, words)
TABLE = [
    # Transport
    ("car", "fc", "directions_car", None, "auto vehicle drive road taxi"),
    ("car.side", "f", "directions_car", None, "auto vehicle drive"),
    ("bus", "fc", "directions_bus", None, "coach transit public transport"),
    ("bus.doubledecker", "f", "directions_bus", None, "coach transit"),
    ("tram", "fc", "tram", None, "streetcar trolley light rail transit"),
    ("lightrail", "f", "tram", None, "tram streetcar transit"),
    ("train.side.front.car", "o", "train", None, "rail railway station"),
    ("tram.fill.tunnel", "o", "subway", None, "metro underground subway tube"),
    ("airplane", "c", "flight", None, "flight plane airport fly"),
    ("airplane.departure", "o", "flight_takeoff", None, "takeoff airport departures"),
    ("airplane.arrival", "o", "flight_land", None, "landing airport arrivals"),
    ("ferry", "fc", "directions_boat", None, "boat ship harbour port"),
    ("sailboat", "fc", "sailing", None, "sailing yacht marina boat"),
    ("bicycle", "c", "pedal_bike", None, "bike cycling cycle"),
    ("scooter", "o", "electric_scooter", None, "kick scooter e-scooter"),
    ("motorcycle", "o", "two_wheeler", None, "motorbike moped"),
    ("figure.walk", "c", "directions_walk", None, "walking pedestrian footpath"),
    ("figure.run", "c", "directions_run", None, "running jogging"),
    ("figure.roll", "o", "accessible", None, "wheelchair accessible disabled"),
    ("stroller", "f", "child_friendly", None, "pram baby child"),
    ("truck.box", "fc", "local_shipping", None, "lorry delivery freight"),
    ("box.truck", "f", "local_shipping", None, "lorry delivery"),
    ("fuelpump", "fc", "local_gas_station", None, "fuel gas petrol station diesel"),
    ("ev.charger", "f", "ev_station", None, "charging electric vehicle charger plug"),
    ("bolt.car", "fc", "electric_car", None, "charging electric vehicle ev"),
    ("parkingsign", "c", "local_parking", None, "parking car park lot garage"),
    ("car.garage", "o", "garage", None, "parking garage"),
    ("road.lanes", "o", "add_road", None, "road highway street"),
    ("signpost.right", "f", "signpost", None, "direction trail sign way"),
    ("map", "fc", "map", None, "atlas plan chart"),
    ("location", "fc", "near_me", None, "navigation here gps arrow"),
    ("location.north", "fc", "navigation", None, "heading compass direction"),
    ("arrow.triangle.turn.up.right.diamond", "f", "directions", None, "route directions turn"),
    ("car.2", "f", "car_rental", None, "car rental hire"),
    ("wrench.adjustable", "f", "car_repair", None, "garage mechanic repair"),
    # Food and drink
    ("fork.knife", "c", "restaurant", None, "restaurant food eat dining meal"),
    ("cup.and.saucer", "f", "local_cafe", None, "cafe coffee tea"),
    ("mug", "f", "coffee", None, "coffee tea hot drink"),
    ("wineglass", "f", "wine_bar", None, "wine bar drinks"),
    ("waterbottle", "f", "local_drink", None, "water drink"),
    ("takeoutbag.and.cup.and.straw", "f", "takeout_dining", None, "takeaway fast food burger"),
    ("birthday.cake", "f", "cake", None, "bakery cake pastry celebration"),
    ("fish", "fc", "set_meal", None, "seafood fish"),
    ("popcorn", "fc", "local_movies", None, "cinema movie snack"),
    ("frying.pan", "f", "soup_kitchen", None, "cooking kitchen"),
    # Lodging
    ("bed.double", "fc", "hotel", None, "hotel lodging sleep accommodation hostel"),
    ("house", "fc", "home", None, "home house residence"),
    ("house.lodge", "fc", "cabin", None, "lodge cabin chalet hut"),
    ("tent", "fc", "festival", None, "camping campsite tent camp"),
    ("tent.2", "f", "holiday_village", None, "camping campsite"),
    ("building", "fc", "apartment", None, "apartment office building"),
    ("building.2", "c", "domain", None, "city office buildings"),
    ("key", "fc", "vpn_key", None, "key room lock"),
    ("suitcase", "fc", "luggage", None, "luggage travel baggage"),
    ("suitcase.rolling", "f", "luggage", None, "luggage travel baggage"),
    ("door.left.hand.open", "o", "door_front", None, "door entrance"),
    # Shopping
    ("cart", "fc", "shopping_cart", None, "shopping cart supermarket grocery"),
    ("basket", "f", "shopping_basket", None, "shopping basket grocery market"),
    ("bag", "fc", "shopping_bag", None, "shopping bag store mall"),
    ("storefront", "fc", "storefront", None, "shop store market"),
    ("creditcard", "fc", "credit_card", None, "payment card credit"),
    ("banknote", "f", "payments", None, "money cash bank"),
    ("dollarsign", "c", "attach_money", None, "money atm cash price"),
    ("eurosign", "c", "euro", None, "money euro price"),
    ("tag", "fc", "local_offer", None, "price tag sale offer"),
    ("gift", "fc", "redeem", None, "gift present shop"),
    ("giftcard", "f", "card_giftcard", None, "gift card voucher"),
    ("tshirt", "f", "checkroom", None, "clothes fashion clothing"),
    ("scissors", "c", "content_cut", None, "hairdresser barber salon cut"),
    ("building.columns", "fc", "account_balance", None, "bank museum government courthouse"),
    ("washer", "f", "local_laundry_service", None, "laundry laundromat"),
    # Health
    ("cross", "fc", "local_hospital", None, "hospital medical clinic doctor first aid"),
    ("cross.case", "fc", "medical_services", None, "first aid medical kit"),
    ("pills", "fc", "medication", None, "pharmacy medicine drugstore chemist"),
    ("syringe", "f", "vaccines", None, "vaccine injection"),
    ("bandage", "f", "healing", None, "first aid plaster"),
    ("staroflife", "fc", "emergency", None, "ambulance emergency medical"),
    ("waveform.path.ecg", "o", "monitor_heart", None, "heart rate cardiology"),
    ("heart", "fc", "favorite", "favorite_border", "love like favourite health"),
    ("facemask", "f", "masks", None, "mask health"),
    ("figure.mind.and.body", "o", "self_improvement", None, "yoga meditation spa wellness"),
    ("dumbbell", "f", "fitness_center", None, "gym fitness workout"),
    ("stethoscope", "c", "medical_information", None, "doctor clinic"),
    # Outdoors and weather
    ("mountain.2", "fc", "terrain", None, "mountains peak summit hills"),
    ("tree", "fc", "park", None, "park forest woods nature"),
    ("leaf", "fc", "eco", None, "nature park garden green"),
    ("sun.max", "fc", "wb_sunny", None, "sun sunny weather"),
    ("moon", "fc", "dark_mode", None, "night moon"),
    ("moon.stars", "fc", "nightlife", None, "night nightlife"),
    ("cloud", "fc", "cloud", None, "cloud weather"),
    ("snowflake", "c", "ac_unit", None, "snow winter cold"),
    ("flame", "fc", "local_fire_department", None, "fire campfire bbq"),
    ("umbrella", "f", "umbrella", None, "rain shelter"),
    ("beach.umbrella", "f", "beach_access", None, "beach seaside coast"),
    ("water.waves", "c", "waves", None, "sea ocean lake water river"),
    ("drop", "fc", "water_drop", None, "water drinking fountain"),
    ("pawprint", "fc", "pets", None, "pets dog cat animal zoo"),
    ("dog", "f", "pets", None, "dog pets"),
    ("bird", "f", "flutter_dash", None, "bird birdwatching wildlife"),
    ("ladybug", "f", "bug_report", None, "insect bug"),
    ("camera", "fc", "photo_camera", None, "photo viewpoint scenic"),
    ("photo", "f", "photo", None, "picture image view"),
    ("binoculars", "f", "travel_explore", None, "viewpoint lookout observation"),
    ("globe", "o", "public", None, "world earth international"),
    ("globe.americas", "f", "public", None, "world earth"),
    ("safari", "f", "explore", None, "compass explore"),
    ("flag", "fc", "flag", "outlined_flag", "flag marker goal"),
    ("flag.checkered", "o", "sports_score", None, "finish race"),
    ("bolt", "fc", "bolt", None, "electricity power lightning"),
    ("figure.hiking", "c", "hiking", None, "hiking trail trekking walk"),
    ("figure.skiing.downhill", "c", "downhill_skiing", None, "ski skiing slope"),
    ("figure.skiing.crosscountry", "o", "nordic_walking", None, "cross-country ski"),
    ("figure.snowboarding", "c", "snowboarding", None, "snowboard"),
    ("figure.surfing", "c", "surfing", None, "surf surfing beach"),
    ("figure.pool.swim", "c", "pool", None, "swimming pool swim"),
    ("figure.fishing", "o", "phishing", None, "fishing angling"),
    ("figure.climbing", "o", "hiking", None, "climbing bouldering"),
    ("lifepreserver", "f", "support", None, "lifeguard rescue buoy"),
    ("thermometer.medium", "o", "device_thermostat", None, "temperature weather"),
    ("wind", "c", "air", None, "wind weather"),
    ("tornado", "o", "tornado", None, "storm weather"),
    # Services
    ("wifi", "c", "wifi", None, "wireless internet hotspot"),
    ("phone", "fc", "phone", None, "telephone call contact"),
    ("envelope", "fc", "mail", None, "mail post office letter email"),
    ("antenna.radiowaves.left.and.right", "c", "cell_tower", None, "signal mobile network"),
    ("toilet", "fc", "wc", None, "toilets restroom wc bathroom lavatory"),
    ("figure.stand.dress.line.vertical.figure", "o", "wc", None, "toilets restroom"),
    ("shower", "f", "shower", None, "shower bathroom"),
    ("bathtub", "f", "bathtub", None, "bath bathroom"),
    ("trash", "fc", "delete", None, "bin rubbish waste garbage"),
    ("arrow.3.trianglepath", "o", "recycling", None, "recycling"),
    ("lightbulb", "fc", "lightbulb", None, "idea light"),
    ("powerplug", "f", "power", None, "socket charging electricity plug"),
    ("battery.100", "o", "battery_full", None, "battery power"),
    ("clock", "fc", "schedule", None, "hours time opening"),
    ("calendar", "c", "calendar_today", None, "date event"),
    ("person", "fc", "person", None, "person user people"),
    ("person.2", "fc", "people", None, "people group"),
    ("figure.2.and.child.holdinghands", "o", "family_restroom", None, "family children"),
    ("lock", "fc", "lock", None, "locked security"),
    ("bell", "fc", "notifications", None, "notification alert"),
    ("star", "c", "star", "star_border", "favourite rating"),
    ("magnifyingglass", "c", "search", None, "search find"),
    ("wrench.and.screwdriver", "fc", "build", None, "repair tools hardware"),
    ("hammer", "fc", "construction", None, "construction works tools"),
    ("printer", "f", "print", None, "print copy shop"),
    ("tv", "fc", "tv", None, "television screen"),
    ("gamecontroller", "f", "sports_esports", None, "games arcade"),
    ("dice", "f", "casino", None, "casino games gambling"),
    ("shield", "fc", "shield", None, "security protection police"),
    ("checkmark.seal", "f", "verified", None, "verified approved"),
    ("fireextinguisher", "f", "fire_extinguisher", None, "fire safety"),
    ("mailbox", "f", "local_post_office", None, "post office mailbox"),
    # Information and warnings
    ("info", "o", "info_outline", None, "information help"),
    ("info.circle", "o", "info_outline", None, "information help"),
    ("exclamationmark.triangle", "o", "warning", None, "warning danger caution hazard"),
    ("exclamationmark.circle", "f", "error", "error_outline", "alert error attention"),
    ("exclamationmark.octagon", "f", "report", None, "stop danger"),
    ("questionmark.circle", "f", "help", "help_outline", "help question support"),
    ("xmark.circle", "f", "cancel", None, "closed cancel no"),
    ("checkmark.circle", "f", "check_circle", "check_circle_outline", "ok done yes open"),
    ("nosign", "o", "block", None, "prohibited forbidden no entry"),
    ("hand.raised", "fc", "pan_tool", None, "stop halt"),
    ("megaphone", "f", "campaign", None, "announcement"),
    # Sports
    ("sportscourt", "fc", "stadium", None, "stadium arena court"),
    ("soccerball", "c", "sports_soccer", None, "football soccer pitch"),
    ("basketball", "fc", "sports_basketball", None, "basketball court"),
    ("football", "fc", "sports_football", None, "american football"),
    ("tennisball", "fc", "sports_tennis", None, "tennis court"),
    ("baseball", "fc", "sports_baseball", None, "baseball field"),
    ("volleyball", "fc", "sports_volleyball", None, "volleyball beach"),
    ("hockey.puck", "fc", "sports_hockey", None, "ice hockey rink"),
    ("cricket.ball", "fc", "sports_cricket", None, "cricket ground"),
    ("rugbyball", "f", "sports_rugby", None, "rugby pitch"),
    ("figure.golf", "c", "golf_course", None, "golf course"),
    ("figure.skating", "c", "ice_skating", None, "ice skating rink"),
    ("figure.boxing", "o", "sports_mma", None, "boxing martial arts"),
    ("figure.gymnastics", "o", "sports_gymnastics", None, "gymnastics"),
    ("figure.martial.arts", "o", "sports_martial_arts", None, "martial arts karate judo"),
    ("trophy", "fc", "emoji_events", None, "trophy award winner"),
    ("medal", "f", "military_tech", None, "medal award"),
    # Culture and entertainment
    ("theatermasks", "fc", "theater_comedy", None, "theatre theater drama performance"),
    ("music.note", "o", "music_note", None, "music concert venue"),
    ("music.mic", "o", "mic", None, "karaoke singing microphone"),
    ("film", "fc", "movie", None, "cinema movie film"),
    ("paintpalette", "f", "palette", None, "art gallery painting"),
    ("paintbrush", "f", "brush", None, "art painting"),
    ("book", "fc", "menu_book", None, "book library reading"),
    ("books.vertical", "fc", "local_library", None, "library books"),
    ("ticket", "f", "local_activity", None, "tickets admission attraction"),
    ("balloon", "f", "celebration", None, "party celebration"),
    ("party.popper", "f", "celebration", None, "party celebration festival"),
    ("sparkles", "o", "auto_awesome", None, "highlight attraction"),
    ("figure.dance", "o", "nightlife", None, "dance club nightlife"),
    ("photo.artframe", "o", "image", None, "art gallery picture frame exhibition"),
    # App interface (the SDK sample app's buttons and lists)
    ("hand.tap", "f", "touch_app", None, "tap touch press finger"),
    ("mappin.and.ellipse", "o", "pin_drop", None, "pin location place marker drop"),
    ("mappin.square", "f", "location_on", None, "pin location place marker"),
    ("pin", "fc", "push_pin", None, "pin pushpin tack"),
    ("chevron.right", "c", "chevron_right", None, "next forward disclosure"),
    ("chevron.left", "c", "chevron_left", None, "back previous"),
    ("chevron.up", "c", "expand_less", None, "up collapse"),
    ("chevron.down", "c", "expand_more", None, "down expand"),
    # Religion (not SF Symbols names; Terrapin's, in SF Symbols' style)
    ("building.church", "fc", "church", None, "church chapel cathedral christian worship"),
    ("building.mosque", "fc", "mosque", None, "mosque muslim islamic worship"),
    ("building.synagogue", "fc", "synagogue", None, "synagogue jewish worship"),
    ("building.temple.buddhist", "f", "temple_buddhist", None, "temple buddhist pagoda worship"),
    ("building.temple.hindu", "f", "temple_hindu", None, "temple hindu mandir worship"),
    # Education
    ("graduationcap", "fc", "school", None, "school university college education"),
    ("backpack", "fc", "backpack", None, "school bag backpack"),
    ("pencil", "c", "edit", None, "write pencil"),
    ("brain", "f", "psychology", None, "science mind"),
    ("studentdesk", "o", "school", None, "school classroom"),
    ("atom", "o", "science", None, "science physics laboratory"),
]


def codepoints():
    text = open(SCSS, encoding="utf-8").read()
    return {m.group(1): int(m.group(2), 16) for m in re.finditer(r'"([a-z0-9_]+)":\s*([0-9a-f]+)', text)}


def main():
    points = codepoints()
    rows, seen = [], set()

    def glyph(name, g):
        if g not in points:
            sys.exit(f"symbol-map: '{g}' (for {name}) is not in {SCSS}")
        return f"{g}\t{points[g]:04X}"

    for base, variants, fill, outline, words in TABLE:
        names = [base] + ([base + ".fill"] if "f" in variants else []) + ([base + ".circle", base + ".circle.fill"] if "c" in variants else [])
        for name in names:
            if name in seen:
                sys.exit(f"symbol-map: {name} appears twice")
            seen.add(name)
        kinds = "".join(v for v in "fc" if v in variants) or "-"
        rows.append(f"{base}\t{kinds}\t{glyph(base, outline or fill)}\t{glyph(base, fill)}\t{words}")
    body = "\n".join(rows)
    swift = f"""// Generated by Tools/symbol-map.py from the Material Icons code points in Debian's
// fonts-material-design-icons-iconfont (scss/_variables.scss). Do not edit: change the table in
// the script and run it again.
//
// One SF Symbols base name a line: the name; its variants ("f": NAME.fill; "c": NAME.circle,
// the plain glyph inside a ring, and NAME.circle.fill, the filled glyph cut out of a disc; "-":
// none); the Material Icons glyph that draws NAME (and NAME.circle) and its code point (hex);
// the glyph that draws NAME.fill (and NAME.circle.fill) and its code point; and the words it
// means, which unknown names are matched against. `SymbolLibrary.entries` expands each line.
enum SymbolMap {{
    static let table = \"\"\"
{body}
\"\"\"
}}
"""
    open(OUT, "w", encoding="utf-8").write(swift)
    print(f"symbol-map: {len(seen)} names in {len(rows)} lines -> {os.path.relpath(OUT)}")


main()
