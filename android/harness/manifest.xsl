<?xml version="1.0" encoding="UTF-8"?>
<!--
  The host harness's manifest merge (resources.xml runs it with Ant's <xslt>, i.e. the JDK's XSLT):
  the part of the Android Gradle Plugin's manifest merger these modules need, so that aapt and
  Robolectric read the manifest a Gradle build would produce.

  In:  a module's source manifest, and the parameters
         package, minSdk, targetSdk  from gradle.properties, as AGP takes namespace/applicationId,
                                     minSdk and targetSdk from the build file (targetSdk may be empty)
         library                     the URL of a library's source manifest (the sdk's), or empty
  Out: the source manifest with package= and a <uses-sdk> as its first child; then the library's
       <uses-permission>s that the module does not request already, and the library's <application>
       children at the start of the module's <application>; foregroundServiceType="specialUse"
       as a resource reference that Debian's aapt (API 29) accepts.

  ${applicationId} placeholders, the module's and the library's, become the package, as AGP's merger fills them in.

  Not done, because nothing here uses it: tools: merge rules, other placeholders, other library elements
  (<queries>, <uses-feature>, ...), conflict errors, and a library <application> without one in the
  module.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:android="http://schemas.android.com/apk/res/android">

  <xsl:param name="package"/>
  <xsl:param name="minSdk"/>
  <xsl:param name="targetSdk"/>
  <xsl:param name="library"/>

  <!-- With library empty, document('') is this stylesheet, which has no <manifest>: nothing is merged. -->
  <xsl:variable name="lib" select="document($library)/manifest"/>

  <!-- Everything else is copied as it is. -->
  <xsl:template match="@*|node()">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="/manifest">
    <xsl:copy>
      <xsl:attribute name="package"><xsl:value-of select="$package"/></xsl:attribute>
      <xsl:apply-templates select="@*"/>
      <uses-sdk android:minSdkVersion="{$minSdk}">
        <xsl:if test="$targetSdk != ''">
          <xsl:attribute name="android:targetSdkVersion"><xsl:value-of select="$targetSdk"/></xsl:attribute>
        </xsl:if>
      </uses-sdk>
      <xsl:apply-templates select="node()"/>
      <xsl:copy-of select="$lib/uses-permission[not(@android:name = current()/uses-permission/@android:name)]"/>
    </xsl:copy>
  </xsl:template>

  <!-- Debian's aapt knows API 29's attribute values only: the name specialUse (API 34) becomes a
       reference to the same value (res/values/harness_integers.xml), which it accepts. Users'
       builds compile the name itself. -->
  <xsl:template match="@android:foregroundServiceType[. = 'specialUse']">
    <xsl:attribute name="android:foregroundServiceType">@integer/harness_fgs_type_special_use</xsl:attribute>
  </xsl:template>

  <!-- The library's components come first: Android's package parser resolves an <activity-alias>
       only against the activities declared before it, and an app may alias the sdk's screen. -->
  <xsl:template match="/manifest/application">
    <xsl:copy>
      <xsl:apply-templates select="@*"/>
      <xsl:apply-templates select="$lib/application/node()" mode="library"/>
      <xsl:apply-templates select="node()"/>
    </xsl:copy>
  </xsl:template>

  <!-- The library's components, copied with ${applicationId} filled in. -->
  <xsl:template match="@*|node()" mode="library">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()" mode="library"/>
    </xsl:copy>
  </xsl:template>
  <xsl:template match="@*[contains(., '${applicationId}')]">
    <xsl:attribute name="{name()}" namespace="{namespace-uri()}">
      <xsl:value-of select="concat(substring-before(., '${applicationId}'), $package, substring-after(., '${applicationId}'))"/>
    </xsl:attribute>
  </xsl:template>
  <xsl:template match="@*[contains(., '${applicationId}')]" mode="library">
    <xsl:attribute name="{name()}" namespace="{namespace-uri()}">
      <xsl:value-of select="concat(substring-before(., '${applicationId}'), $package, substring-after(., '${applicationId}'))"/>
    </xsl:attribute>
  </xsl:template>
</xsl:stylesheet>
